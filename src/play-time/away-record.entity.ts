import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** Time a player spent away from the keyboard, as one report (or source row) gave it; (origin, sourceId) is unique. */
@Entity('away_records')
export class AwayRecord {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ name: 'source_id', type: 'varchar', length: 128 })
  sourceId: string;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ type: 'integer' })
  seconds: number;

  @Column({ type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  at: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
