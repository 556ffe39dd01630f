import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import { type DbTime, isoTime } from '../database/transformers';
import type { SyncTrigger } from './banlist-sync-run.entity';
import type { SyncSummary } from './banlist.view';

interface SyncRunRow {
  players: number;
  updated: number;
  failed: number;
  removedBans: number;
  startedAt: DbTime;
  finishedAt: DbTime;
}

const RECENT_RUNS_SQL =
  'SELECT players, updated, failed, removed_bans AS removedBans, started_at AS startedAt, finished_at AS finishedAt ' +
  'FROM banlist_sync_runs ORDER BY finished_at DESC, id DESC LIMIT ?';
const INSERT_SQL = 'INSERT INTO banlist_sync_runs (triggered_by, players, updated, failed, removed_bans, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)';

/** The record of ban-list sync runs: the one writer of `banlist_sync_runs` (no cached read depends on it). */
@Injectable()
export class SyncRunsRepository {
  constructor(private readonly reader: SqlReader) {}

  async insertRun(tx: Transaction, trigger: SyncTrigger, summary: SyncSummary): Promise<void> {
    await tx.run(INSERT_SQL, [
      trigger,
      summary.players,
      summary.updated,
      summary.failed,
      summary.removedBans,
      tx.time(new Date(summary.startedAt)),
      tx.time(new Date(summary.finishedAt)),
    ]);
  }

  /** The last `limit` finished runs (any instance), newest first. */
  async getRecentRuns(limit: number): Promise<SyncSummary[]> {
    return (await this.reader.all<SyncRunRow>(RECENT_RUNS_SQL, [limit])).map(toSummary);
  }
}

function toSummary(row: SyncRunRow): SyncSummary {
  return { ...row, startedAt: isoTime(row.startedAt)!, finishedAt: isoTime(row.finishedAt)! };
}
