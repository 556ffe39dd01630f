import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A reported change of a player's permission group; (origin, source id) is unique. */
@Entity('player_group_reports')
export class PlayerGroupReport {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ name: 'source_id', type: 'varchar', length: 64 })
  sourceId: string;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  /** Lower case. */
  @Column({ name: 'group_name', type: 'varchar', length: 64 })
  groupName: string;

  /** When a temporary group ends; null: it does not. */
  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  expiresAt: Date | null;

  @Column({ name: 'reported_at', type: 'datetime', precision: 3, transformer: utcDate })
  reportedAt: Date;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
