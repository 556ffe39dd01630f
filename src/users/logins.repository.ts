import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { LoginInput } from './login-batch';

const FIRST_LOGIN_SINCE_SQL = 'SELECT MIN(logged_in_at) AS loggedInAt FROM login_records WHERE player_uuid = ? AND logged_in_at >= ?';

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

  /** The first login at or after `since`. */
  async getFirstLoginSince(uuid: string, since: Date): Promise<Date | null> {
    const row = await this.reader.one<{ loggedInAt: DbTime | null }>(FIRST_LOGIN_SINCE_SQL, [uuid, this.reader.time(since)]);
    return row?.loggedInAt ? dateOf(row.loggedInAt) : null;
  }
}
