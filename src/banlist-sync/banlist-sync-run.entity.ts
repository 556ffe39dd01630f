import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

export type SyncTrigger = 'schedule' | 'api' | 'cli';

/** The summary of one finished sync run, kept for the status endpoint and for the record. */
@Entity('banlist_sync_runs')
export class BanlistSyncRun {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'triggered_by', type: 'varchar', length: 16 })
  triggeredBy: SyncTrigger;

  @Column({ type: 'integer' })
  players: number;

  @Column({ type: 'integer' })
  updated: number;

  @Column({ type: 'integer' })
  failed: number;

  @Column({ name: 'removed_bans', type: 'integer' })
  removedBans: number;

  @Column({ name: 'started_at', type: 'datetime', precision: 3, transformer: utcDate })
  startedAt: Date;

  @Column({ name: 'finished_at', type: 'datetime', precision: 3, transformer: utcDate })
  finishedAt: Date;
}
