import { Injectable } from '@nestjs/common';
import { datetimeParameter, executeCountingRows } from '../database/affected-rows';
import { SqlReader } from '../database/sql-reader';
import { dateOf } from '../database/transformers';
import type { Transaction } from '../database/unit-of-work';
import { ConsoleSession } from './console-session.entity';

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
  id: number | string;
  apiKeyId: number | string | null;
  clubTokenId: number | string | null;
  createdAt: Date | string;
  lastSeenAt: Date | string;
  expiresAt: Date | string;
}

const BY_HASH_SQL = `SELECT id, api_key_id AS apiKeyId, club_token_id AS clubTokenId, created_at AS createdAt,
  last_seen_at AS lastSeenAt, expires_at AS expiresAt FROM console_sessions WHERE session_hash = ?`;

function toRecord(row: SessionRow): ConsoleSessionRecord {
  return {
    id: Number(row.id),
    apiKeyId: row.apiKeyId === null ? null : Number(row.apiKeyId),
    clubTokenId: row.clubTokenId === null ? null : Number(row.clubTokenId),
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
    await tx.insert(ConsoleSession, row);
  }

  async getByHash(sessionHash: string): Promise<ConsoleSessionRecord | null> {
    const row = await this.reader.one<SessionRow>(BY_HASH_SQL, [sessionHash]);
    return row ? toRecord(row) : null;
  }

  /** Records a use unless one was recorded since `stale`, so concurrent requests write once. */
  async touch(tx: Transaction, id: number, now: Date, stale: Date): Promise<void> {
    await executeCountingRows(tx, 'UPDATE console_sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?', [datetimeParameter(tx, now), id, datetimeParameter(tx, stale)]);
  }

  async delete(tx: Transaction, id: number): Promise<void> {
    await tx.delete(ConsoleSession, { id });
  }

  /** Sessions past their absolute end or idle since `idleBefore`; returns how many. */
  deleteExpired(tx: Transaction, now: Date, idleBefore: Date): Promise<number> {
    return executeCountingRows(tx, 'DELETE FROM console_sessions WHERE expires_at <= ? OR last_seen_at <= ?', [datetimeParameter(tx, now), datetimeParameter(tx, idleBefore)]);
  }

  async count(): Promise<number> {
    const row = await this.reader.one<{ n: number | string }>('SELECT COUNT(*) AS n FROM console_sessions');
    return Number(row?.n ?? 0);
  }
}
