import { Column, Entity, PrimaryColumn, ValueTransformer } from 'typeorm';
import { utcDate } from '../database/transformers';
import type { BanType } from './upstream-player';

/** mysql2 returns BIGINT as a string; ban ids are validated as safe integers before they are stored. */
const bigintNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/** One ban of a mirrored player; `banId` is the upstream's id. */
@Entity('banlist_bans')
export class BanlistBan {
  @PrimaryColumn({ name: 'ban_id', type: 'bigint', transformer: bigintNumber })
  banId: number;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ type: 'varchar', length: 8 })
  type: BanType;

  @Column({ type: 'text' })
  reason: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  server: string | null;

  @Column({ name: 'banned_by', type: 'varchar', length: 64, nullable: true })
  bannedBy: string | null;

  @Column({ name: 'lost_rep', type: 'double', nullable: true })
  lostRep: number | null;

  @Column({ name: 'banned_at', type: 'datetime', precision: 3, transformer: utcDate })
  bannedAt: Date;

  /** When a successful fetch last confirmed this ban. */
  @Column({ name: 'synced_at', type: 'datetime', precision: 3, transformer: utcDate })
  syncedAt: Date;
}
