import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { Origin } from '../votes/sender-ids';
import type { StoredGroup } from './group-choice';

const CHUNK = 500;

/** A reported change of a player's group (group already normalised). */
export interface GroupChange {
  id: string;
  uuid: string;
  group: string;
  expiresAt: Date | null;
  at: Date;
}

/** A player's group row as stored. */
export interface GroupRow extends StoredGroup {
  uuid: string;
  origin: Origin;
}

/** A `player_groups` row as the report's read selects it: raw driver values. */
interface ReportRow {
  groupName: string;
  expiresAt: DbTime | null;
  reportedAt: DbTime;
}

// One primary-key read: the login side (the player's latest permission) is the caller's players row.
const REPORT_SQL = 'SELECT group_name AS groupName, expires_at AS expiresAt, reported_at AS reportedAt FROM player_groups WHERE player_uuid = ?';

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** Permission groups: the reported changes and the current group per player; the one owner of both tables. */
@Injectable()
export class PlayerGroupsRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Which of `sourceIds` are stored already for `origin`. */
  async getStoredReportIds(tx: Transaction, origin: Origin, sourceIds: readonly string[]): Promise<Set<string>> {
    const stored = new Set<string>();
    for (const chunk of chunks(sourceIds, CHUNK)) {
      const rows = await tx.all<{ sourceId: string }>(
        `SELECT source_id AS sourceId FROM player_group_reports WHERE origin = ? AND source_id IN (${placeholders(chunk.length)})`,
        [origin, ...chunk],
      );
      for (const row of rows) {
        stored.add(row.sourceId);
      }
    }
    return stored;
  }

  /** Stores reported changes, skipping sender ids stored already; returns how many were new. */
  async insertReports(tx: Transaction, origin: Origin, changes: readonly GroupChange[], createdAt: Date): Promise<number> {
    let inserted = 0;
    for (const chunk of chunks(changes, CHUNK)) {
      const { affectedRows } = await tx.run(
        `${tx.insertIgnore} INTO player_group_reports (origin, source_id, player_uuid, group_name, expires_at, reported_at, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((change) => [origin, change.id, change.uuid, change.group, change.expiresAt === null ? null : tx.time(change.expiresAt), tx.time(change.at), tx.time(createdAt)]),
      );
      inserted += affectedRows;
    }
    return inserted;
  }

  /** The current groups of `uuids`, locked until the transaction ends (MySQL). */
  async lockCurrent(tx: Transaction, uuids: readonly string[]): Promise<Map<string, GroupRow>> {
    const current = new Map<string, GroupRow>();
    for (const chunk of chunks([...new Set(uuids)].sort(), CHUNK)) {
      const rows = await tx.all<{ uuid: string; groupName: string; expiresAt: DbTime | null; reportedAt: DbTime; origin: Origin }>(
        'SELECT player_uuid AS uuid, group_name AS groupName, expires_at AS expiresAt, reported_at AS reportedAt, origin ' +
          `FROM player_groups WHERE player_uuid IN (${placeholders(chunk.length)}) ORDER BY player_uuid${tx.forUpdate}`,
        chunk,
      );
      for (const row of rows) {
        current.set(row.uuid, {
          uuid: row.uuid,
          group: row.groupName,
          expiresAt: row.expiresAt === null ? null : dateOf(row.expiresAt),
          reportedAt: dateOf(row.reportedAt),
          origin: row.origin,
        });
      }
    }
    return current;
  }

  /** Writes current groups as given (created or replaced), in the order given. */
  async writeCurrent(tx: Transaction, groups: readonly GroupRow[], updatedAt: Date): Promise<void> {
    const assigned = ['group_name', 'expires_at', 'reported_at', 'origin', 'updated_at'];
    const update = tx.isMysql
      ? `ON DUPLICATE KEY UPDATE ${assigned.map((column) => `${column} = VALUES(${column})`).join(', ')}`
      : `ON CONFLICT (player_uuid) DO UPDATE SET ${assigned.map((column) => `${column} = excluded.${column}`).join(', ')}`;
    for (const chunk of chunks(groups, CHUNK)) {
      await tx.run(
        `INSERT INTO player_groups (player_uuid, group_name, expires_at, reported_at, origin, updated_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} ${update}`,
        chunk.flatMap((group) => [group.uuid, group.group, group.expiresAt === null ? null : tx.time(group.expiresAt), tx.time(group.reportedAt), group.origin, tx.time(updatedAt)]),
      );
    }
  }

  /** The reported group of one player (committed data); null when none was reported or imported. */
  async getReport(uuid: string): Promise<StoredGroup | null> {
    const row = await this.reader.one<ReportRow>(REPORT_SQL, [uuid]);
    return row ? { group: row.groupName, expiresAt: row.expiresAt === null ? null : dateOf(row.expiresAt), reportedAt: dateOf(row.reportedAt) } : null;
  }
}
