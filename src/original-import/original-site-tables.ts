import type { Transaction } from '../database/transaction';
import type { ImportResult, FeatureTable } from './feature-table';
import { countOf, decimalOf, githubIdOf, groupOf, homeUrlOf, inForceOf, nameAtTheTime, optionalInstantOf, requiredInstantOf, twitterIdOf, type LinkValue } from './feature-rows';
import { chatIdOf, optionalText, uuidOf, UnreadableRow, type SourceRow } from './original-mapping';
import { fitText } from './import-run';
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
    wanted: ['uuid', 'onlinetime', 'updated_at'],
    naturalKeys: [['uuid']],
    descending: true,
    thenBy: ['updated_at'],
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
    read: (row, sourceId, { offset, limits }) => {
      if (issuedColumn === undefined) {
        throw new UnreadableRow('the table has no created_at column: the punishment has no time');
      }
      const active = inForceOf(row.status);
      return {
        table,
        sourceId,
        uuid: uuidOf(row.uuid),
        mcid: nameAtTheTime(row.player) ?? '',
        reason: fitText(limits, 'reason', optionalText(row.reason)) ?? '',
        testment: table === 'jail' ? fitText(limits, 'testment', optionalText(row.testment)) : null,
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
      realMatchTime: decimalOf(row.real_match_time, 'real_match_time'),
      calcMatchTime: decimalOf(row.calc_match_time, 'calc_match_time'),
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
    thenBy: atColumn ? [atColumn] : [],
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

export interface ImportedVoteTotal {
  sourceId: string;
  uuid: string;
  site: 'first' | 'second';
  count: number;
  lastVotedAt: Date | null;
}

export interface ImportedLoginText {
  sourceId: string;
  uuid: string;
  text: string | null;
}

/** The longest login text the votes feature stores. */
const LOGIN_TEXT_MAX = 255;

/** Where a vote table's last vote may be: a DATETIME, or a Unix time in seconds or milliseconds. */
const LAST_VOTE_COLUMNS = ['last', 'lasttime', 'last_vote', 'updated_at'];

/**
 * `vote` (the first vote site, with the player's login text) and `vote_monocraft` (the second):
 * one total per player, the newest row wins. The login text goes with the first site's row.
 */
export function voteTable(
  source: SourceReader,
  table: 'vote' | 'vote_monocraft',
  writeTotals: Write<ImportedVoteTotal>,
  writeLoginTexts?: Write<ImportedLoginText>,
): FeatureTable<ImportedVoteTotal & { loginText: string | null }> {
  const lastColumn = LAST_VOTE_COLUMNS.find((column) => source.hasColumn(table, column));
  const withText = table === 'vote' && writeLoginTexts !== undefined && source.hasColumn(table, 'logintext');
  return {
    table,
    wanted: ['uuid', 'count', ...(lastColumn ? [lastColumn] : []), ...(withText ? ['logintext'] : [])],
    naturalKeys: [['uuid']],
    descending: true,
    thenBy: lastColumn ? [lastColumn] : [],
    playerOf: (item) => item.uuid,
    read: (row, sourceId, { offset, notice }) => {
      const loginText = withText ? optionalText(row.logintext) : null;
      if (loginText !== null && [...loginText].length > LOGIN_TEXT_MAX) {
        notice(`logintext is longer than ${LOGIN_TEXT_MAX} characters; imported cut to ${LOGIN_TEXT_MAX}`);
      }
      return {
        sourceId,
        uuid: uuidOf(row.uuid),
        site: table === 'vote' ? 'first' : 'second',
        count: countOf(row.count, 'count'),
        lastVotedAt: lastColumn === undefined ? null : optionalInstantOf(row[lastColumn], offset, lastColumn),
        loginText: loginText === null ? null : [...loginText].slice(0, LOGIN_TEXT_MAX).join(''),
      };
    },
    write: async (tx, items) => {
      const totals = await writeTotals(tx, items.map(({ loginText: _text, ...total }) => total));
      if (withText && writeLoginTexts) {
        // The row's outcome is its total's; its login text is written in the same transaction.
        await writeLoginTexts(tx, items.map((item) => ({ sourceId: item.sourceId, uuid: item.uuid, text: item.loginText })));
      }
      return totals;
    },
  };
}

export interface ImportedSecondAccount {
  sourceId: string;
  chatid: string;
  name: string | null;
  discriminator: string | null;
  mainChatid: string;
  registeredAt: Date;
}

/** `subaccount`: second chat accounts of a person, by their main chat id. */
export function secondAccountTable(source: SourceReader, write: Write<ImportedSecondAccount>): FeatureTable<ImportedSecondAccount> {
  const table = 'subaccount';
  const registeredColumn = source.timeColumnOf(table, ['created_at', 'date']);
  return {
    table,
    wanted: ['disid', 'name', 'discriminator', 'main_disid', ...(registeredColumn ? [registeredColumn] : [])],
    naturalKeys: [['disid']],
    read: (row, sourceId, { offset }) => {
      if (registeredColumn === undefined) {
        throw new UnreadableRow('the table has no created_at column: when the second account was registered is unknown');
      }
      return {
        sourceId,
        chatid: chatIdOf(row.disid),
        name: optionalText(row.name),
        discriminator: optionalText(row.discriminator),
        mainChatid: chatIdOf(row.main_disid, 'main_disid'),
        registeredAt: requiredInstantOf(row[registeredColumn], offset, registeredColumn),
      };
    },
    write,
  };
}

export interface ImportedProfileLinks {
  sourceId: string;
  uuid: string;
  twitterId: string | null;
  githubId: string | null;
  homeUrl: string | null;
}

/** `socials`: a player's profile links; one row per player, the newest wins. */
export function profileLinksTable(write: Write<ImportedProfileLinks>): FeatureTable<ImportedProfileLinks> {
  return {
    table: 'socials',
    wanted: ['uuid', 'twitterId', 'githubId', 'homeUrl', 'update_at', 'updated_at', 'created_at'],
    naturalKeys: [['uuid']],
    descending: true,
    thenBy: ['update_at', 'updated_at', 'created_at'],
    playerOf: (item) => item.uuid,
    read: (row, sourceId, { notice }) => {
      // A value not of its form is left out, with a notice naming the row; the rest of the row is imported.
      const keep = (link: LinkValue): string | null => {
        if (link.dropped !== undefined) {
          notice(`${link.dropped}; left out, the rest of the row is imported`);
        }
        return link.value;
      };
      return { sourceId, uuid: uuidOf(row.uuid), twitterId: keep(twitterIdOf(row.twitterId)), githubId: keep(githubIdOf(row.githubId)), homeUrl: keep(homeUrlOf(row.homeUrl)) };
    },
    write,
  };
}

export interface ImportedCommunityBan {
  sourceId: string;
  banId: number;
  uuid: string;
  type: 'global' | 'local';
  reason: string;
  bannedBy: string | null;
  /** Null when the row has no time (the mirror's time of the ban id, else the import's, is taken). */
  bannedAt: Date | null;
}

const BAN_ID = /^\s*\d{1,15}\s*$/;

/** `mcbans_jaoafa`: the ban-list bans issued on the community's own server, by ban id. */
export function communityBansTable(source: SourceReader, write: Write<ImportedCommunityBan>): FeatureTable<ImportedCommunityBan> {
  const table = 'mcbans_jaoafa';
  const timeColumn = source.timeColumnOf(table, ['created_at', 'date']);
  const issuerColumn = ['banned_by', 'issuer'].find((column) => source.hasColumn(table, column));
  return {
    table,
    wanted: ['uuid', 'banid', 'type', 'reason', ...(issuerColumn ? [issuerColumn] : []), ...(timeColumn ? [timeColumn] : [])],
    naturalKeys: [['banid']],
    // Rows of one ban id earliest first: the ban as first recorded holds the id.
    thenBy: timeColumn ? [timeColumn] : [],
    read: (row, sourceId, { offset, limits }) => {
      const banText = optionalText(row.banid);
      if (banText === null || !BAN_ID.test(banText) || Number(banText) === 0) {
        throw new UnreadableRow(`banid ${banText === null ? 'NULL' : JSON.stringify(banText)} is not a ban id`);
      }
      const type = optionalText(row.type)?.toLowerCase() ?? '';
      if (!/^(g|global|l|local)$/.test(type)) {
        throw new UnreadableRow(`type ${JSON.stringify(optionalText(row.type))} is neither global nor local`);
      }
      return {
        sourceId,
        banId: Number(banText),
        uuid: uuidOf(row.uuid),
        type: type.startsWith('g') ? 'global' : 'local',
        reason: fitText(limits, 'reason', optionalText(row.reason)) ?? '',
        bannedBy: issuerColumn === undefined ? null : nameAtTheTime(row[issuerColumn]),
        bannedAt: timeColumn === undefined ? null : optionalInstantOf(row[timeColumn], offset, timeColumn),
      };
    },
    write,
  };
}
