import { Column, Entity, PrimaryColumn, ValueTransformer } from 'typeorm';
import { utcDate } from '../database/transformers';

/** mysql2 returns BIGINT as a string; ban ids are checked as safe integers before they are stored. */
const bigintNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/** Where a community ban's time came from: the source row, the mirror's ban of that id, or the import (neither had one). */
export type BanTimeFrom = 'source' | 'mirror' | 'import';

/**
 * A ban-list ban issued on the community's own server (original-sites.md section 3), kept apart
 * from the mirror so a sync never deletes it; `banId` is the ban-list service's id.
 */
@Entity('community_banlist_bans')
export class CommunityBanlistBan {
  @PrimaryColumn({ name: 'ban_id', type: 'bigint', transformer: bigintNumber })
  banId: number;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  /** `global` or `local`. */
  @Column({ type: 'varchar', length: 8 })
  type: 'global' | 'local';

  @Column({ type: 'text' })
  reason: string;

  @Column({ name: 'banned_by', type: 'varchar', length: 64, nullable: true })
  bannedBy: string | null;

  @Column({ name: 'banned_at', type: 'datetime', precision: 3, transformer: utcDate })
  bannedAt: Date;

  @Column({ name: 'banned_at_from', type: 'varchar', length: 8 })
  bannedAtFrom: BanTimeFrom;

  /** True while in force as far as known (the bans site shows a ban no longer listed as `status: false`). */
  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ name: 'source_id', type: 'varchar', length: 64 })
  sourceId: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
