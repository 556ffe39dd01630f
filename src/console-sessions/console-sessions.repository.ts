import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { ConsoleSession } from './console-session.entity';

/** A stored console session as reads return it (never its hash). */
export interface ConsoleSessionRecord {
  id: number;
  apiKeyId: number | null;
  clubTokenId: number | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

interface SessionRow {
  id: number;
  apiKeyId: number | null;
  clubTokenId: number | null;
  createdAt: DbTime;
  lastSeenAt: DbTime;
  expiresAt: DbTime;
}

const BY_HASH_SQL = `SELECT id, api_key_id AS apiKeyId, club_token_id AS clubTokenId, created_at AS createdAt,
  last_seen_at AS lastSeenAt, expires_at AS expiresAt FROM console_sessions WHERE session_hash = ?`;

function toRecord(row: SessionRow): ConsoleSessionRecord {
  return {
    id: row.id,
    apiKeyId: row.apiKeyId,
    clubTokenId: row.clubTokenId,
    createdAt: dateOf(row.createdAt),
    lastSeenAt: dateOf(row.lastSeenAt),
    expiresAt: dateOf(row.expiresAt),
  };
}

/** Every query on console_sessions. */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(private readonly reader: SqlReader) {}

  async create(tx: Transaction, row: Omit<ConsoleSession, 'id'>): Promise<void> {
    await tx.run(
      'INSERT INTO console_sessions (session_hash, api_key_id, club_token_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      [row.sessionHash, row.apiKeyId, row.clubTokenId, tx.time(row.createdAt), tx.time(row.lastSeenAt), tx.time(row.expiresAt)],
    );
  }

  async getByHash(sessionHash: string): Promise<ConsoleSessionRecord | null> {
    const row = await this.reader.one<SessionRow>(BY_HASH_SQL, [sessionHash]);
    return row ? toRecord(row) : null;
  }

  /** Records a use unless one was recorded since `stale`, so concurrent requests write once. */
  async touch(tx: Transaction, id: number, now: Date, stale: Date): Promise<void> {
    await tx.run('UPDATE console_sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?', [tx.time(now), id, tx.time(stale)]);
  }

  async delete(tx: Transaction, id: number): Promise<void> {
    await tx.run('DELETE FROM console_sessions WHERE id = ?', [id]);
  }

  /** Sessions past their absolute end or idle since `idleBefore`; returns how many. */
  async deleteExpired(tx: Transaction, now: Date, idleBefore: Date): Promise<number> {
    const { affectedRows } = await tx.run('DELETE FROM console_sessions WHERE expires_at <= ? OR last_seen_at <= ?', [tx.time(now), tx.time(idleBefore)]);
    return affectedRows;
  }

  async count(): Promise<number> {
    const row = await this.reader.one<{ n: number }>('SELECT COUNT(*) AS n FROM console_sessions');
    return row?.n ?? 0;
  }
}
