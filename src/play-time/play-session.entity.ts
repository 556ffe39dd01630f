import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A session of play as the game server reported it (or an imported per-session row); (origin, sourceId) is unique. */
@Entity('play_sessions')
export class PlaySession {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ name: 'source_id', type: 'varchar', length: 128 })
  sourceId: string;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ type: 'varchar', length: 96, nullable: true })
  reporter: string | null;

  @Column({ name: 'started_at', type: 'datetime', precision: 3, transformer: utcDate })
  startedAt: Date;

  @Column({ name: 'counted_until', type: 'datetime', precision: 3, transformer: utcDate })
  countedUntil: Date;

  @Column({ name: 'ended_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  endedAt: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
