import { Injectable } from '@nestjs/common';
import type { PlayerIdentifier } from '../common/identifiers';
import { DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { chunks } from '../database/chunks';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import type { PlayerLoginSummary } from './player-login-summary';
import type { Player } from './player.entity';

/** A player as every read returns it: a plain object with the entity's fields (not a managed entity). */
export type PlayerRecord = Player;

/** What a city list shows of an owner; compared before and after a write to tell a real change. */
export interface OwnerNames {
  uuid: string;
  mcid: string | null;
  chatid: string | null;
}

/** A `players` row as the reads select it: raw driver values (DATETIME as text on SQLite, Date on MySQL). */
interface PlayerRow {
  uuid: string;
  mcid: string | null;
  mcidKey: string | null;
  chatid: string | null;
  permission: string | null;
  firstLogin: DbTime | null;
  lastLogin: DbTime | null;
  createdAt: DbTime;
}

const PLAYER = `SELECT uuid, mcid, mcid_key AS mcidKey, chatid, permission, first_login AS firstLogin, last_login AS lastLogin, created_at AS createdAt FROM players`;
const BY_UUID_SQL = `${PLAYER} WHERE uuid = ?`;
const BY_MCID_SQL = `${PLAYER} WHERE mcid_key = ? ORDER BY last_login DESC, created_at DESC LIMIT 1`;
// `/users` lookups: only players seen at or after the cutoff. The uuid is the primary key and the chat id unique;
// the game id is served by IDX_players_mcid_key_last_login (one index seek, newest first).
const LOGGED_IN_SQL: Record<PlayerIdentifier['kind'], string> = {
  uuid: `${PLAYER} WHERE uuid = ? AND last_login >= ? LIMIT 1`,
  chatid: `${PLAYER} WHERE chatid = ? AND last_login >= ? LIMIT 1`,
  mcid: `${PLAYER} WHERE mcid_key = ? AND last_login >= ? ORDER BY last_login DESC LIMIT 1`,
};
const CHAT_HOLDER_SQL = 'SELECT uuid FROM players WHERE chatid = ?';
const BY_CHATID_SQL = `${PLAYER} WHERE chatid = ?`;
// Game ids are [A-Za-z0-9_] and their keys lower case: every key starting with p lies in [p, p + '~').
// The moderation search: every player (a bare row too: one known only by a punishment) whose game id starts so, seen last first.
const SEARCH_BY_MCID_PREFIX_SQL = `${PLAYER} WHERE mcid_key >= ? AND mcid_key < ? ORDER BY last_login DESC, uuid LIMIT ?`;
const BY_MCID_PREFIX_SQL = 'SELECT mcid FROM players WHERE mcid_key >= ? AND mcid_key < ? AND last_login IS NOT NULL ORDER BY last_login DESC, uuid LIMIT ?';


/** Rows per upsert statement: 7 parameters each stays far below SQLite's and MySQL's placeholder limits. */
const UPSERT_CHUNK = 500;

/** The one mapping of a `players` row. */
function toPlayer(row: PlayerRow | undefined): PlayerRecord | null {
  if (!row) {
    return null;
  }
  return {
    uuid: row.uuid,
    mcid: row.mcid,
    mcidKey: row.mcidKey,
    chatid: row.chatid,
    permission: row.permission,
    firstLogin: row.firstLogin === null ? null : dateOf(row.firstLogin),
    lastLogin: row.lastLogin === null ? null : dateOf(row.lastLogin),
    createdAt: dateOf(row.createdAt),
  };
}

/** True when a city list would show an owner differently after the write. */
function ownersChanged(before: readonly OwnerNames[], after: readonly OwnerNames[]): boolean {
  const now = new Map(after.map((owner) => [owner.uuid, owner]));
  return before.some((owner) => now.get(owner.uuid)?.mcid !== owner.mcid || now.get(owner.uuid)?.chatid !== owner.chatid);
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * Every query of `players`, and its one writer: the records, names and chat links. Every write
 * bumps `players`, and `city-owners` when a city owner's game id or chat id changed (compared
 * before and after, so login batches that change no owner leave city lists cached). Login records
 * and achievements are the users feature's own tables and repositories (src/users/).
 * Hot reads go through SqlReader's prepared statements (committed data only); `tx` methods run
 * inside the caller's UnitOfWork transaction.
 */
@Injectable()
export class PlayersRepository {
  /** `GET /users/{x}` is a hot read: players seen since a cutoff, by identifier (topic `players`). */
  private readonly loggedIn: ReadCache<PlayerRecord | null>;

  constructor(
    private readonly reader: SqlReader,
    private readonly versions: DataVersions,
  ) {
    this.loggedIn = new ReadCache(versions, ['players']);
  }

  async getByUuid(uuid: string): Promise<PlayerRecord | null> {
    return toPlayer(await this.reader.one<PlayerRow>(BY_UUID_SQL, [uuid]));
  }

  /** Of every player whose latest name is `mcidKey` (lower case), the one seen last. */
  async getByMcid(mcidKey: string): Promise<PlayerRecord | null> {
    return toPlayer(await this.reader.one<PlayerRow>(BY_MCID_SQL, [mcidKey]));
  }

  /** The player whose active chat link is `chatid`. */
  async getByChatid(chatid: string): Promise<PlayerRecord | null> {
    return toPlayer(await this.reader.one<PlayerRow>(BY_CHATID_SQL, [chatid]));
  }

  /** Current game ids starting with `prefix` (any case), of players who logged in, most recently seen first. */
  async getMcidsByPrefix(prefix: string, limit: number): Promise<string[]> {
    const key = prefix.toLowerCase();
    const rows = await this.reader.all<{ mcid: string }>(BY_MCID_PREFIX_SQL, [key, `${key}~`, limit]);
    return rows.map((row) => row.mcid);
  }

  /** Players (any, logged in or not) whose current game id starts with `prefix` (any case), most recently seen first. */
  async searchByMcidPrefix(prefix: string, limit: number): Promise<PlayerRecord[]> {
    const key = prefix.toLowerCase();
    const rows = await this.reader.all<PlayerRow>(SEARCH_BY_MCID_PREFIX_SQL, [key, `${key}~`, limit]);
    return rows.map((row) => toPlayer(row)!);
  }

  /** A player seen at or after `since`, by uuid, chat id or game id (lower case). */
  /** Cached; the record is shared, not to be mutated. */
  getLoggedIn(kind: PlayerIdentifier['kind'], value: string, since: Date): Promise<PlayerRecord | null> {
    return this.loggedIn.get(`${kind}:${since.getTime()}:${value}`, async () =>
      toPlayer(await this.reader.one<PlayerRow>(LOGGED_IN_SQL[kind], [value, this.reader.time(since)])),
    );
  }

  /** Game ids and chat ids by uuid (for Discord messages: a mention by chat id when linked); uuids without a row are left out. */
  async getNames(uuids: readonly string[]): Promise<Map<string, OwnerNames>> {
    const names = new Map<string, OwnerNames>();
    if (uuids.length > 0) {
      const rows = await this.reader.all<OwnerNames>(`SELECT uuid, mcid, chatid FROM players WHERE uuid IN (${placeholders(uuids.length)})`, uuids);
      for (const row of rows) {
        names.set(row.uuid, row);
      }
    }
    return names;
  }

  /** The player as the transaction sees it (its own uncommitted writes included). */
  async getInTransaction(tx: Transaction, uuid: string): Promise<PlayerRecord | null> {
    return toPlayer(await tx.one<PlayerRow>(BY_UUID_SQL, [uuid]));
  }

  /** Inserts a player not seen before; false when the row already exists. */
  async createIfAbsent(tx: Transaction, uuid: string, mcid: string, createdAt: Date): Promise<boolean> {
    const { affectedRows } = await tx.run(`${tx.insertIgnore} INTO players (uuid, mcid, mcid_key, created_at) VALUES (?, ?, ?, ?)`, [
      uuid,
      mcid,
      mcid.toLowerCase(),
      tx.time(createdAt),
    ]);
    if (affectedRows > 0) {
      // A new player owns no city yet: only player reads can change.
      await this.versions.bump(tx, 'players');
    }
    return affectedRows > 0;
  }

  /**
   * Inserts a row with its game id for each player not seen yet, in uuid order (one lock order for
   * concurrent batches on MySQL), in statements of many rows; returns how many were new. Bumps
   * `players` once then.
   */
  async createNamedIfAbsent(tx: Transaction, players: ReadonlyArray<{ uuid: string; mcid: string }>, createdAt: Date): Promise<number> {
    let created = 0;
    const sorted = [...players].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
    for (const chunk of chunks(sorted, UPSERT_CHUNK)) {
      const { affectedRows } = await tx.run(
        `${tx.insertIgnore} INTO players (uuid, mcid, mcid_key, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((player) => [player.uuid, player.mcid, player.mcid.toLowerCase(), tx.time(createdAt)]),
      );
      created += affectedRows;
    }
    if (created > 0) {
      await this.versions.bump(tx, 'players');
    }
    return created;
  }

  /** Of `uuids`, the players with no login yet, with their names (the transaction's view). */
  async getWithoutLoginIn(tx: Transaction, uuids: readonly string[]): Promise<Array<{ uuid: string; mcid: string | null }>> {
    const found: Array<{ uuid: string; mcid: string | null }> = [];
    for (const chunk of chunks(uuids, UPSERT_CHUNK)) {
      found.push(...(await tx.all<{ uuid: string; mcid: string | null }>(`SELECT uuid, mcid FROM players WHERE first_login IS NULL AND uuid IN (${placeholders(chunk.length)})`, chunk)));
    }
    return found;
  }

  /**
   * Inserts a bare row (no name, no login) for each of `uuids` not seen yet, in uuid order (one
   * lock order for concurrent batches on MySQL); returns how many were new. Bumps `players` then.
   */
  async createBareIfAbsent(tx: Transaction, uuids: readonly string[], createdAt: Date): Promise<number> {
    let created = 0;
    for (const chunk of chunks([...new Set(uuids)].sort(), UPSERT_CHUNK)) {
      const { affectedRows } = await tx.run(
        `${tx.insertIgnore} INTO players (uuid, created_at) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
        chunk.flatMap((uuid) => [uuid, tx.time(createdAt)]),
      );
      created += affectedRows;
    }
    if (created > 0) {
      await this.versions.bump(tx, 'players');
    }
    return created;
  }

  async rename(tx: Transaction, uuid: string, mcid: string): Promise<void> {
    await this.changingNames(tx, [uuid], () => tx.run('UPDATE players SET mcid = ?, mcid_key = ? WHERE uuid = ?', [mcid, mcid.toLowerCase(), uuid]));
  }

  /** The player holding a chat id, if any. */
  async getChatHolder(tx: Transaction, chatid: string): Promise<string | null> {
    return (await tx.one<{ uuid: string }>(CHAT_HOLDER_SQL, [chatid]))?.uuid ?? null;
  }

  async setChatid(tx: Transaction, uuid: string, chatid: string | null): Promise<void> {
    await this.changingNames(tx, [uuid], () => tx.run('UPDATE players SET chatid = ? WHERE uuid = ?', [chatid, uuid]));
  }

  /** Runs a write of players' names, bumping `players`, and `city-owners` only when an owner's names really changed. */
  private async changingNames(tx: Transaction, uuids: readonly string[], write: () => Promise<unknown>): Promise<void> {
    const before = await this.getOwnerNames(tx, uuids);
    await write();
    await this.versions.bump(tx, 'players');
    if (before.length > 0 && ownersChanged(before, await this.getOwnerNames(tx, before.map((owner) => owner.uuid)))) {
      await this.versions.bump(tx, 'city-owners');
    }
  }

  /**
   * The names of those of `uuids` that own a city (any state), read inside the transaction. On
   * MySQL the rows are locked, so a concurrent batch cannot change them between this read and
   * the caller's write, and the caller's before/after comparison is exact.
   */
  async getOwnerNames(tx: Transaction, uuids: readonly string[]): Promise<OwnerNames[]> {
    const lock = tx.forUpdate;
    const sorted = [...new Set(uuids)].sort();
    const result: OwnerNames[] = [];
    for (const chunk of chunks(sorted, UPSERT_CHUNK)) {
      const rows = await tx.all<OwnerNames>(
        `SELECT p.uuid AS uuid, p.mcid AS mcid, p.chatid AS chatid FROM players p WHERE p.uuid IN (${placeholders(chunk.length)}) ` +
          `AND EXISTS (SELECT 1 FROM cities c WHERE c.owner_uuid = p.uuid) ORDER BY p.uuid${lock}`,
        chunk,
      );
      result.push(...rows.map((row) => ({ uuid: row.uuid, mcid: row.mcid, chatid: row.chatid })));
    }
    return result;
  }

  /**
   * Keeps `players` in step with newly stored login records: one multi-row upsert per chunk. The
   * update half is conditional (earlier first login; name, permission and last login only from a
   * strictly later login), so batches that touch one player commute: any order, any concurrency,
   * the same result.
   */
  async upsertFromLogins(tx: Transaction, summaries: readonly PlayerLoginSummary[]): Promise<void> {
    // MySQL evaluates SET left to right, so last_login comes last: the conditions before it must see the old value.
    const later = (incoming: string): string => `players.last_login IS NULL OR players.last_login < ${incoming}`;
    const upsert = tx.isMysql
      ? `ON DUPLICATE KEY UPDATE
           first_login = IF(players.first_login IS NULL OR players.first_login > VALUES(first_login), VALUES(first_login), players.first_login),
           mcid = IF(${later('VALUES(last_login)')}, VALUES(mcid), players.mcid),
           mcid_key = IF(${later('VALUES(last_login)')}, VALUES(mcid_key), players.mcid_key),
           permission = IF(${later('VALUES(last_login)')}, VALUES(permission), players.permission),
           last_login = IF(${later('VALUES(last_login)')}, VALUES(last_login), players.last_login)`
      : `ON CONFLICT (uuid) DO UPDATE SET
           first_login = CASE WHEN players.first_login IS NULL OR players.first_login > excluded.first_login THEN excluded.first_login ELSE players.first_login END,
           mcid = CASE WHEN ${later('excluded.last_login')} THEN excluded.mcid ELSE players.mcid END,
           mcid_key = CASE WHEN ${later('excluded.last_login')} THEN excluded.mcid_key ELSE players.mcid_key END,
           permission = CASE WHEN ${later('excluded.last_login')} THEN excluded.permission ELSE players.permission END,
           last_login = CASE WHEN ${later('excluded.last_login')} THEN excluded.last_login ELSE players.last_login END`;
    await this.changingNames(
      tx,
      summaries.map((summary) => summary.uuid),
      () => this.insertSummaries(tx, summaries, `INSERT INTO players`, upsert),
    );
  }

  /**
   * Inserts the players of `summaries` that have no row yet (their summary so far); keeps existing
   * rows as they are. The history import adds players this way and settles every summary once at
   * the end with `settleFromLogins` (docs/benchmarks.md, "Importing the original database").
   */
  async insertAbsentFromLogins(tx: Transaction, summaries: readonly PlayerLoginSummary[]): Promise<void> {
    // New rows only, of players who own no city yet: player reads may change (a cached "not found").
    await this.insertSummaries(tx, summaries, `${tx.insertIgnore} INTO players`, '');
    await this.versions.bump(tx, 'players');
  }

  /**
   * Brings the summaries of `uuids` in step with their stored login records, set-based: an earlier
   * first login, and name, permission and last login from a strictly later login, as the upsert
   * above (so it commutes with a game server's batches). Players without login records are left alone.
   */
  async settleFromLogins(tx: Transaction, uuids: readonly string[]): Promise<void> {
    const ofPlayer = 'FROM login_records l WHERE l.player_uuid = players.uuid';
    const earliest = `(SELECT MIN(l.logged_in_at) ${ofPlayer})`;
    const latest = `(SELECT MAX(l.logged_in_at) ${ofPlayer})`;
    const ofLatest = (column: string): string => `(SELECT l.${column} ${ofPlayer} ORDER BY l.logged_in_at DESC LIMIT 1)`;
    const later = `players.last_login IS NULL OR players.last_login < ${latest}`;
    await this.changingNames(tx, uuids, async () => {
      for (const chunk of chunks([...new Set(uuids)].sort(), UPSERT_CHUNK)) {
        // last_login comes last: MySQL evaluates SET left to right, and the conditions before it must see the old value.
        await tx.run(
          `UPDATE players SET
             first_login = CASE WHEN players.first_login IS NULL OR players.first_login > ${earliest} THEN ${earliest} ELSE players.first_login END,
             mcid = CASE WHEN ${later} THEN ${ofLatest('mcid')} ELSE players.mcid END,
             mcid_key = CASE WHEN ${later} THEN LOWER(${ofLatest('mcid')}) ELSE players.mcid_key END,
             permission = CASE WHEN ${later} THEN ${ofLatest('permission')} ELSE players.permission END,
             last_login = CASE WHEN ${later} THEN ${latest} ELSE players.last_login END
           WHERE players.uuid IN (${placeholders(chunk.length)}) AND EXISTS (SELECT 1 ${ofPlayer})`,
          chunk,
        );
      }
    });
  }

  /** One multi-row INSERT of summaries per chunk, sorted so concurrent batches lock shared rows in one order (no deadlock on MySQL). */
  private async insertSummaries(tx: Transaction, summaries: readonly PlayerLoginSummary[], insert: string, tail: string): Promise<void> {
    const now = tx.time(new Date());
    const sorted = [...summaries].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
    for (const chunk of chunks(sorted, UPSERT_CHUNK)) {
      await tx.run(
        `${insert} (uuid, mcid, mcid_key, permission, first_login, last_login, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')} ${tail}`,
        chunk.flatMap((summary) => [
          summary.uuid,
          summary.latest.mcid,
          summary.latest.mcid.toLowerCase(),
          summary.latest.permission,
          tx.time(summary.firstLogin),
          tx.time(summary.latest.loggedInAt),
          now,
        ]),
      );
    }
  }
}
