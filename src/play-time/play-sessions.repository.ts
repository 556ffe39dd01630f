import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { StoredSession } from './session-reports';

/** Where a session came from: the game server's routes, or the original database's import. */
export type SessionOrigin = 'game-server' | 'original';

/** A session to insert: times in whole epoch seconds. */
export interface NewSession extends StoredSession {
  origin: SessionOrigin;
  reporter: string | null;
}

interface SessionRow {
  sourceId: string;
  uuid: string;
  startedAt: DbTime;
  countedUntil: DbTime;
  endedAt: DbTime | null;
}

/** Rows per statement: 8 parameters each stays far below both databases' placeholder limits. */
const CHUNK = 500;

const seconds = (value: DbTime): number => Math.floor(dateOf(value).getTime() / 1000);
const instant = (epochSeconds: number): Date => new Date(epochSeconds * 1000);

function toStored(row: SessionRow): StoredSession {
  return {
    sourceId: row.sourceId,
    uuid: row.uuid,
    startedAt: seconds(row.startedAt),
    countedUntil: seconds(row.countedUntil),
    endedAt: row.endedAt === null ? null : seconds(row.endedAt),
  };
}

/** The one owner of `play_sessions`. Every method runs inside the caller's transaction. */
@Injectable()
export class PlaySessionsRepository {
  /** The stored sessions of these ids (locked on MySQL until the transaction ends), by id. */
  async getForUpdate(tx: Transaction, origin: SessionOrigin, sourceIds: readonly string[]): Promise<Map<string, StoredSession>> {
    const found = new Map<string, StoredSession>();
    // Sorted: concurrent batches lock shared rows in one order.
    for (const chunk of chunks([...new Set(sourceIds)].sort(), CHUNK)) {
      const rows = await tx.all<SessionRow>(
        'SELECT source_id AS sourceId, player_uuid AS uuid, started_at AS startedAt, counted_until AS countedUntil, ended_at AS endedAt ' +
          `FROM play_sessions WHERE origin = ? AND source_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY source_id${tx.forUpdate}`,
        [origin, ...chunk],
      );
      for (const row of rows) {
        found.set(row.sourceId, toStored(row));
      }
    }
    return found;
  }

  /** Which of these ids are stored already. */
  async getStoredIds(tx: Transaction, origin: SessionOrigin, sourceIds: readonly string[]): Promise<Set<string>> {
    const stored = new Set<string>();
    for (const chunk of chunks([...new Set(sourceIds)].sort(), CHUNK)) {
      const rows = await tx.all<{ sourceId: string }>(`SELECT source_id AS sourceId FROM play_sessions WHERE origin = ? AND source_id IN (${chunk.map(() => '?').join(', ')})`, [
        origin,
        ...chunk,
      ]);
      for (const row of rows) {
        stored.add(row.sourceId);
      }
    }
    return stored;
  }

  /** Inserts new sessions; a concurrent insert of the same id fails on the unique key (the caller runs the batch again). */
  async insert(tx: Transaction, sessions: readonly NewSession[], now: Date): Promise<void> {
    const created = tx.time(now);
    for (const chunk of chunks(sessions, CHUNK)) {
      await tx.run(
        'INSERT INTO play_sessions (origin, source_id, player_uuid, reporter, started_at, counted_until, ended_at, created_at) VALUES ' +
          chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', '),
        chunk.flatMap((session) => [
          session.origin,
          session.sourceId,
          session.uuid,
          session.reporter,
          tx.time(instant(session.startedAt)),
          tx.time(instant(session.countedUntil)),
          session.endedAt === null ? null : tx.time(instant(session.endedAt)),
          created,
        ]),
      );
    }
  }

  /** Moves a stored session on (its counted time, its end). */
  async update(tx: Transaction, origin: SessionOrigin, session: StoredSession): Promise<void> {
    await tx.run('UPDATE play_sessions SET counted_until = ?, ended_at = ? WHERE origin = ? AND source_id = ?', [
      tx.time(instant(session.countedUntil)),
      session.endedAt === null ? null : tx.time(instant(session.endedAt)),
      origin,
      session.sourceId,
    ]);
  }

  /** The start of the player's latest session of `origin` (served by IDX_play_sessions_player_started). */
  async getLatestStart(tx: Transaction, origin: SessionOrigin, uuid: string): Promise<Date | null> {
    const row = await tx.one<{ startedAt: DbTime | null }>('SELECT MAX(started_at) AS startedAt FROM play_sessions WHERE player_uuid = ? AND origin = ?', [uuid, origin]);
    return row?.startedAt ? dateOf(row.startedAt) : null;
  }

  /** Ends the player's open sessions that started before `before` at their last reported activity. */
  async closeOpenBefore(tx: Transaction, origin: SessionOrigin, uuid: string, before: Date): Promise<number> {
    const { affectedRows } = await tx.run('UPDATE play_sessions SET ended_at = counted_until WHERE player_uuid = ? AND origin = ? AND ended_at IS NULL AND started_at < ?', [
      uuid,
      origin,
      tx.time(before),
    ]);
    return affectedRows;
  }

  /** Ends a reporter's open sessions that started before `before` (the server restarted) at their last reported activity. */
  async closeReporterBefore(tx: Transaction, reporter: string, before: Date): Promise<number> {
    const { affectedRows } = await tx.run('UPDATE play_sessions SET ended_at = counted_until WHERE reporter = ? AND ended_at IS NULL AND started_at < ?', [reporter, tx.time(before)]);
    return affectedRows;
  }
}
