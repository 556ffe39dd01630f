import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** One result of the timing mini-game (periodmatch), with its ranking score stored (periodmatch-score.ts). */
@Entity('minigame_results')
export class MiniGameResult {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** `game-server`, or `original` for the import. */
  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ name: 'source_id', type: 'varchar', length: 80 })
  sourceId: string;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ type: 'varchar', length: 64 })
  mcid: string;

  @Column({ type: 'integer' })
  success: number;

  @Column({ type: 'integer' })
  failure: number;

  /** The category: the target time in seconds. */
  @Column({ name: 'match_time', type: 'integer' })
  matchTime: number;

  @Column({ name: 'real_match_time', type: 'double' })
  realMatchTime: number;

  /** Milliseconds. */
  @Column({ name: 'calc_match_time', type: 'double' })
  calcMatchTime: number;

  @Column({ type: 'boolean', default: true })
  status: boolean;

  @Column({ type: 'double' })
  score: number;

  @Column({ name: 'start_time', type: 'datetime', precision: 3, transformer: utcDate })
  startTime: Date;

  @Column({ name: 'end_time', type: 'datetime', precision: 3, transformer: utcDate })
  endTime: Date;
}
