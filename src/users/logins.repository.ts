import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { LoginInput } from './login-batch';

const FIRST_LOGIN_SINCE_SQL = 'SELECT MIN(logged_in_at) AS loggedInAt FROM login_records WHERE player_uuid = ? AND logged_in_at >= ?';

// The players seen last (IDX_players_last_login, read backwards) joined to each one's latest login
// record by the unique (player_uuid, logged_in_at) index: one statement, 50 index seeks.
const LATEST_OF_RECENT_PLAYERS_SQL =
  'SELECT lr.id AS id, p.uuid AS uuid, lr.mcid AS mcid, lr.logged_in_at AS loggedInAt FROM players p ' +
  'JOIN login_records lr ON lr.player_uuid = p.uuid AND lr.logged_in_at = p.last_login ' +
  'WHERE p.last_login IS NOT NULL ORDER BY p.last_login DESC, p.uuid DESC LIMIT ?';
// Read backwards from the newest: on MariaDB IDX_login_records_player_recent (player, time, game id;
// the id rides along) answers alone, with no row read per login; on SQLite the unique (player_uuid,
// logged_in_at) index, each row an in-process seek. Exported for the test of its plan.
export const RECENT_OF_SQL = 'SELECT id, mcid, logged_in_at AS loggedInAt FROM login_records WHERE player_uuid = ? ORDER BY logged_in_at DESC LIMIT ?';

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
  /** The players site's "recent logins", the same for every caller until a login batch commits (topic `players`). */
  private readonly recentPlayers: ReadCache<ReadonlyArray<LoginRecordView & { uuid: string }>>;

  constructor(
    private readonly reader: SqlReader,
    versions: DataVersions,
  ) {
    this.recentPlayers = new ReadCache(versions, ['players']);
  }

  /** The latest login of each of the `limit` players seen last, newest first. Cached; not to be mutated. */
  getLatestOfRecentPlayers(limit: number): Promise<ReadonlyArray<LoginRecordView & { uuid: string }>> {
    return this.recentPlayers.get(String(limit), async () => {
      const rows = await this.reader.all<{ id: number; uuid: string; mcid: string; loggedInAt: DbTime }>(LATEST_OF_RECENT_PLAYERS_SQL, [limit]);
      return rows.map((row) => ({ id: Number(row.id), uuid: row.uuid, mcid: row.mcid, loggedInAt: dateOf(row.loggedInAt) }));
    });
  }

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

  /** The first login at or after `since`. */
  async getFirstLoginSince(uuid: string, since: Date): Promise<Date | null> {
    const row = await this.reader.one<{ loggedInAt: DbTime | null }>(FIRST_LOGIN_SINCE_SQL, [uuid, this.reader.time(since)]);
    return row?.loggedInAt ? dateOf(row.loggedInAt) : null;
  }
}
