import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { LoginInput } from './login-batch';

const FIRST_LOGIN_SINCE_SQL = 'SELECT MIN(logged_in_at) AS loggedInAt FROM login_records WHERE player_uuid = ? AND logged_in_at >= ?';

// The unique (player_uuid, logged_in_at) index, read backwards from the newest.
const RECENT_OF_SQL = 'SELECT id, mcid, logged_in_at AS loggedInAt FROM login_records WHERE player_uuid = ? ORDER BY logged_in_at DESC LIMIT ?';

export interface LoginRecordView {
  id: number;
  mcid: string;
  loggedInAt: Date;
}

/** Rows per login-record INSERT (4 parameters each): within SQLite's placeholder limit at any import batch size. */
const INSERT_CHUNK = 1000;

/** Login records: the one owner of `login_records`. */
@Injectable()
export class LoginsRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Stores login records, skipping exact repeats (same player and time); returns how many were new. */
  async insertLogins(tx: Transaction, records: readonly LoginInput[]): Promise<number> {
    let inserted = 0;
    for (const chunk of chunks(records, INSERT_CHUNK)) {
      const { affectedRows } = await tx.run(
        `${tx.insertIgnore} INTO login_records (player_uuid, mcid, logged_in_at, permission) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((record) => [record.uuid, record.mcid, tx.time(record.loggedInAt), record.permission]),
      );
      inserted += affectedRows;
    }
    return inserted;
  }

  /** A player's latest logins, newest first. */
  async getRecentOf(uuid: string, limit: number): Promise<LoginRecordView[]> {
    const rows = await this.reader.all<{ id: number; mcid: string; loggedInAt: DbTime }>(RECENT_OF_SQL, [uuid, limit]);
    return rows.map((row) => ({ id: Number(row.id), mcid: row.mcid, loggedInAt: dateOf(row.loggedInAt) }));
  }

  /** The login records of (player, time) pairs, by `uuid|epoch ms`: one indexed lookup each, in one statement. */
  async getAt(pairs: ReadonlyArray<{ uuid: string; at: Date }>): Promise<Map<string, LoginRecordView>> {
    const found = new Map<string, LoginRecordView>();
    if (pairs.length === 0) {
      return found;
    }
    const rows = await this.reader.all<{ id: number; uuid: string; mcid: string; loggedInAt: DbTime }>(
      `SELECT id, player_uuid AS uuid, mcid, logged_in_at AS loggedInAt FROM login_records WHERE ${pairs.map(() => '(player_uuid = ? AND logged_in_at = ?)').join(' OR ')}`,
      pairs.flatMap((pair) => [pair.uuid, this.reader.time(pair.at)]),
    );
    for (const row of rows) {
      const loggedInAt = dateOf(row.loggedInAt);
      found.set(`${row.uuid}|${loggedInAt.getTime()}`, { id: Number(row.id), mcid: row.mcid, loggedInAt });
    }
    return found;
  }

  /** The first login at or after `since`. */
  async getFirstLoginSince(uuid: string, since: Date): Promise<Date | null> {
    const row = await this.reader.one<{ loggedInAt: DbTime | null }>(FIRST_LOGIN_SINCE_SQL, [uuid, this.reader.time(since)]);
    return row?.loggedInAt ? dateOf(row.loggedInAt) : null;
  }
}
