import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A player's permission group as last reported (a newer login's permission wins over it when read). */
@Entity('player_groups')
export class PlayerGroup {
  @PrimaryColumn({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ name: 'group_name', type: 'varchar', length: 64 })
  groupName: string;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  expiresAt: Date | null;

  @Column({ name: 'reported_at', type: 'datetime', precision: 3, transformer: utcDate })
  reportedAt: Date;

  /** `game-server` or `original` (imported): an import replaces only what an import set. */
  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
