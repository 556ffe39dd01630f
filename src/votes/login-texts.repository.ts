import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { Origin } from './sender-ids';

const CHUNK = 500;

/** A reported change of a login text. */
export interface LoginTextChange {
  id: string;
  uuid: string;
  text: string | null;
  at: Date;
}

/** A player's current login text as stored. */
export interface CurrentLoginText {
  uuid: string;
  text: string | null;
  origin: Origin;
  reportedAt: Date | null;
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** Login texts: the reported changes and the current text per player; the one owner of both tables. */
@Injectable()
export class LoginTextsRepository {
  /** Which of `sourceIds` are stored already for `origin`. */
  async getStoredReportIds(tx: Transaction, origin: Origin, sourceIds: readonly string[]): Promise<Set<string>> {
    const stored = new Set<string>();
    for (const chunk of chunks(sourceIds, CHUNK)) {
      const rows = await tx.all<{ sourceId: string }>(
        `SELECT source_id AS sourceId FROM login_text_reports WHERE origin = ? AND source_id IN (${placeholders(chunk.length)})`,
        [origin, ...chunk],
      );
      for (const row of rows) {
        stored.add(row.sourceId);
      }
    }
    return stored;
  }

  /** Stores reported changes, skipping sender ids stored already; returns how many were new. */
  async insertReports(tx: Transaction, origin: Origin, changes: readonly LoginTextChange[], createdAt: Date): Promise<number> {
    let inserted = 0;
    for (const chunk of chunks(changes, CHUNK)) {
      const { affectedRows } = await tx.run(
        `${tx.insertIgnore} INTO login_text_reports (origin, source_id, player_uuid, login_text, reported_at, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((change) => [origin, change.id, change.uuid, change.text, tx.time(change.at), tx.time(createdAt)]),
      );
      inserted += affectedRows;
    }
    return inserted;
  }

  /** The current texts of `uuids`, locked until the transaction ends (MySQL). */
  async lockCurrent(tx: Transaction, uuids: readonly string[]): Promise<Map<string, CurrentLoginText>> {
    const current = new Map<string, CurrentLoginText>();
    for (const chunk of chunks([...new Set(uuids)].sort(), CHUNK)) {
      const rows = await tx.all<{ uuid: string; text: string | null; origin: Origin; reportedAt: DbTime | null }>(
        `SELECT player_uuid AS uuid, login_text AS text, origin, reported_at AS reportedAt FROM login_texts WHERE player_uuid IN (${placeholders(chunk.length)}) ORDER BY player_uuid${tx.forUpdate}`,
        chunk,
      );
      for (const row of rows) {
        current.set(row.uuid, { uuid: row.uuid, text: row.text, origin: row.origin, reportedAt: row.reportedAt === null ? null : dateOf(row.reportedAt) });
      }
    }
    return current;
  }

  /** Writes current texts as given (created or replaced), in the order given. */
  async writeCurrent(tx: Transaction, texts: readonly CurrentLoginText[], updatedAt: Date): Promise<void> {
    const assigned = ['login_text', 'origin', 'reported_at', 'updated_at'];
    const update = tx.isMysql
      ? `ON DUPLICATE KEY UPDATE ${assigned.map((column) => `${column} = VALUES(${column})`).join(', ')}`
      : `ON CONFLICT (player_uuid) DO UPDATE SET ${assigned.map((column) => `${column} = excluded.${column}`).join(', ')}`;
    for (const chunk of chunks(texts, CHUNK)) {
      await tx.run(
        `INSERT INTO login_texts (player_uuid, login_text, origin, reported_at, updated_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')} ${update}`,
        chunk.flatMap((text) => [text.uuid, text.text, text.origin, text.reportedAt === null ? null : tx.time(text.reportedAt), tx.time(updatedAt)]),
      );
    }
  }
}
