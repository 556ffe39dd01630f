import type { Transaction } from '../database/transaction';
import type { ImportResult, FeatureTable } from './feature-table';
import { countOf, groupOf, inForceOf, nameAtTheTime, optionalInstantOf, requiredInstantOf, signedOf } from './feature-rows';
import { optionalText, uuidOf, UnreadableRow, type SourceRow } from './original-mapping';
import type { SourceReader } from './source-reader';

/**
 * The players site's source tables (docs/moving-from-original.md, "What each table becomes"): for
 * each, the columns read, how a row is identified, how it is read and which feature import takes
 * it. The features are reached through the seams below (their `import…In(tx, rows)` methods), so
 * this file holds no feature's internals.
 */

type Write<T> = (tx: Transaction, rows: T[]) => Promise<ImportResult>;

/** The columns a session's end may be in, before the table's first DATETIME / TIMESTAMP column. */
const SESSION_END_COLUMNS = ['created_at', 'date', 'ended_at'];
const AWAY_TIME_COLUMNS = ['created_at', 'date', 'updated_at'];

export interface ImportedSession {
  sourceId: string;
  uuid: string;
  endedAt: Date;
  seconds: number;
}

export interface ImportedTotal {
  sourceId: string;
  uuid: string;
  seconds: number;
}

export interface ImportedAway {
  sourceId: string;
  uuid: string;
  seconds: number;
  at: Date | null;
}

/** `daily-onlinetime`: one row per session, written when it ended (its time column is the end). */
export function dailyOnlineTable(source: SourceReader, write: Write<ImportedSession>): FeatureTable<ImportedSession> {
  const table = 'daily-onlinetime';
  const endColumn = source.timeColumnOf(table, SESSION_END_COLUMNS);
  return {
    table,
    wanted: ['uuid', 'onlinetime', ...(endColumn ? [endColumn] : [])],
    read: (row, sourceId, { offset }) => {
      if (endColumn === undefined) {
        throw new UnreadableRow('the table has no time column (created_at or another DATETIME / TIMESTAMP): the session has no end');
      }
      return { sourceId, uuid: uuidOf(row.uuid), seconds: countOf(row.onlinetime, 'onlinetime'), endedAt: requiredInstantOf(row[endColumn], offset, endColumn) };
    },
    write,
  };
}

/** `onlinetime`: one total per player, the current era's total up to the import. */
export function onlineTotalTable(write: Write<ImportedTotal>): FeatureTable<ImportedTotal> {
  return {
    table: 'onlinetime',
    wanted: ['uuid', 'onlinetime'],
    naturalKeys: [['uuid']],
    descending: true,
    playerOf: (item) => item.uuid,
    read: (row, sourceId) => ({ sourceId, uuid: uuidOf(row.uuid), seconds: countOf(row.onlinetime, 'onlinetime') }),
    write,
  };
}

/** `afktime`: a row per accumulation of time away from the keyboard. */
export function awayTable(source: SourceReader, write: Write<ImportedAway>): FeatureTable<ImportedAway> {
  const table = 'afktime';
  const timeColumn = source.timeColumnOf(table, AWAY_TIME_COLUMNS);
  const secondsColumn = source.hasColumn(table, 'seconds') ? 'seconds' : 'afktime';
  return {
    table,
    wanted: ['uuid', secondsColumn, ...(timeColumn ? [timeColumn] : [])],
    read: (row, sourceId, { offset }) => ({
      sourceId,
      uuid: uuidOf(row.uuid),
      seconds: countOf(row[secondsColumn], secondsColumn),
      at: timeColumn === undefined ? null : optionalInstantOf(row[timeColumn], offset, timeColumn),
    }),
    write,
  };
}

export type PunishmentTable = 'jail' | 'eban' | 'chatban' | 'chatjail';

export interface ImportedPunishment {
  table: PunishmentTable;
  sourceId: string;
  uuid: string;
  mcid: string;
  reason: string;
  testment: string | null;
  active: boolean;
  issuedBy: string;
  issuedAt: Date;
  liftedAt: Date | null;
}

/** Where a lifted punishment's time may be (the original records none; `updated_at` where a table has it). */
const LIFTED_COLUMNS = ['lifted_at', 'removed_at', 'updated_at'];

/** `jail`, `eban`, `chatban`, `chatjail`: punishments, kept with their source (table, id). */
export function punishmentTable(source: SourceReader, table: PunishmentTable, write: Write<ImportedPunishment>): FeatureTable<ImportedPunishment> {
  const liftedColumn = LIFTED_COLUMNS.find((column) => source.hasColumn(table, column));
  const issuedColumn = source.timeColumnOf(table, ['created_at', 'date']);
  return {
    table,
    wanted: ['player', 'uuid', 'banned_by', 'reason', 'status', ...(table === 'jail' ? ['testment'] : []), ...(issuedColumn ? [issuedColumn] : []), ...(liftedColumn ? [liftedColumn] : [])],
    read: (row, sourceId, { offset }) => {
      if (issuedColumn === undefined) {
        throw new UnreadableRow('the table has no created_at column: the punishment has no time');
      }
      const active = inForceOf(row.status);
      return {
        table,
        sourceId,
        uuid: uuidOf(row.uuid),
        mcid: nameAtTheTime(row.player) ?? '',
        reason: optionalText(row.reason) ?? '',
        testment: table === 'jail' ? optionalText(row.testment) : null,
        active,
        issuedBy: nameAtTheTime(row.banned_by) ?? 'CONSOLE',
        issuedAt: requiredInstantOf(row[issuedColumn], offset, issuedColumn),
        liftedAt: active || liftedColumn === undefined ? null : optionalInstantOf(row[liftedColumn], offset, liftedColumn),
      };
    },
    write,
  };
}

export interface ImportedMatch {
  sourceId: string;
  uuid: string;
  mcid: string;
  success: number;
  failure: number;
  matchTime: number;
  realMatchTime: number;
  calcMatchTime: number;
  startTime: Date;
  endTime: Date;
}

/** `periodmatch2`: the timing mini-game's results. */
export function periodMatchTable(write: Write<ImportedMatch>): FeatureTable<ImportedMatch> {
  return {
    table: 'periodmatch2',
    wanted: ['uuid', 'player', 'success', 'failure', 'match_time', 'real_match_time', 'calc_match_time', 'start_time', 'end_time'],
    read: (row: SourceRow, sourceId, { offset }) => ({
      sourceId,
      uuid: uuidOf(row.uuid),
      mcid: nameAtTheTime(row.player) ?? '',
      success: countOf(row.success, 'success'),
      failure: countOf(row.failure, 'failure'),
      matchTime: countOf(row.match_time, 'match_time'),
      realMatchTime: signedOf(row.real_match_time, 'real_match_time'),
      calcMatchTime: countOf(row.calc_match_time, 'calc_match_time'),
      startTime: requiredInstantOf(row.start_time, offset, 'start_time'),
      endTime: requiredInstantOf(row.end_time, offset, 'end_time'),
    }),
    write,
  };
}

export interface ImportedGroup {
  sourceId: string;
  uuid: string;
  group: string;
  expiresAt: Date | null;
  at: Date | null;
}

/** `permissions`: the player's group and when a temporary one ends; one row per player, the newest wins. */
export function permissionsTable(source: SourceReader, write: Write<ImportedGroup>): FeatureTable<ImportedGroup> {
  const table = 'permissions';
  const atColumn = ['updated_at', 'created_at'].find((column) => source.hasColumn(table, column));
  return {
    table,
    wanted: ['uuid', 'permission', 'expire_at', ...(atColumn ? [atColumn] : [])],
    naturalKeys: [['uuid']],
    descending: true,
    playerOf: (item) => item.uuid,
    read: (row, sourceId, { offset }) => ({
      sourceId,
      uuid: uuidOf(row.uuid),
      group: groupOf(row.permission),
      expiresAt: optionalInstantOf(row.expire_at, offset, 'expire_at'),
      at: atColumn === undefined ? null : optionalInstantOf(row[atColumn], offset, atColumn),
    }),
    write,
  };
}
