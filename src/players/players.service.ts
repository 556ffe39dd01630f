import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';
import type { PlayerIdentifier } from '../common/identifiers';
import { isUniqueViolation } from '../database/database-errors';
import type { PlayerLoginSummary } from '../users/login-batch';
import { datetimeParameter, isMysql as mysqlConnection } from '../database/affected-rows';
import { DataVersions } from '../database/data-versions';
import { SqlReader } from '../database/sql-reader';
import { dateOf } from '../database/transformers';
import { Player } from './player.entity';

/**
 * A datetime parameter for the read queries: TypeORM's stored text ("YYYY-MM-DD HH:MM:SS.SSS", UTC), which
 * SQLite compares as a string and MySQL converts to a DATETIME constant (the pool runs in UTC).
 */
function datetimeText(date: Date): string {
  return DateUtils.mixedDateToUtcDatetimeString(date) as string;
}

/** Rows per upsert statement: 7 parameters each stays far below SQLite's and MySQL's placeholder limits. */
const UPSERT_CHUNK = 500;

/** A `players` row as the read queries select it: raw driver values (DATETIME as text on SQLite, Date on MySQL). */
interface PlayerRow {
  uuid: string;
  mcid: string | null;
  mcidKey: string | null;
  chatid: string | null;
  permission: string | null;
  firstLogin: Date | string | null;
  lastLogin: Date | string | null;
  createdAt: Date | string;
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

/** A plain `Player` (not a managed entity) from a row; the same fields TypeORM would hydrate. */
function playerOf(row: PlayerRow | undefined): Player | null {
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

/** The shared player registry: who a uuid or a game id refers to. */
@Injectable()
export class PlayersService {
  constructor(
    @InjectRepository(Player) private readonly players: Repository<Player>,
    private readonly versions: DataVersions,
    private readonly reader: SqlReader,
  ) {}

  async findByUuid(uuid: string): Promise<Player | null> {
    return playerOf(await this.reader.one<PlayerRow>(BY_UUID_SQL, [uuid.toLowerCase()]));
  }

  /** The current holder of a game id: of every player whose latest name it is, the one seen last. */
  async findByMcid(mcid: string): Promise<Player | null> {
    return playerOf(await this.reader.one<PlayerRow>(BY_MCID_SQL, [mcid.toLowerCase()]));
  }

  /** Records a player seen for the first time (e.g. when a user key is issued); keeps an existing row. */
  async ensure(uuid: string, mcid: string, manager?: EntityManager): Promise<void> {
    const repository = manager ? manager.getRepository(Player) : this.players;
    const key = uuid.toLowerCase();
    const existing = await repository.findOneBy({ uuid: key });
    if (existing) {
      // A player without login records has no better source for the name than the game server now.
      if (!existing.firstLogin && existing.mcid !== mcid) {
        await repository.update({ uuid: key }, { mcid, mcidKey: mcid.toLowerCase() });
        await this.versions.bump(repository.manager, 'players');
      }
      return;
    }
    try {
      await repository.insert({
        uuid: key,
        mcid,
        mcidKey: mcid.toLowerCase(),
        chatid: null,
        permission: null,
        firstLogin: null,
        lastLogin: null,
        createdAt: new Date(),
      });
    } catch (error) {
      if (!isUniqueViolation(error)) {
        throw error;
      }
    }
  }

  /**
   * A player that exists for `/users`: seen in a login record at or after `since` (DATA_CUTOFF).
   * By game id: the current holder of the name (latest last login among players whose latest name it is).
   */
  async findLoggedIn(identifier: PlayerIdentifier, since: Date): Promise<Player | null> {
    const value = identifier.kind === 'chatid' ? identifier.value : identifier.value.toLowerCase();
    return playerOf(await this.reader.one<PlayerRow>(LOGGED_IN_SQL[identifier.kind], [value, datetimeText(since)]));
  }

  /**
   * Keeps `players` in step with newly stored login records, inside the caller's transaction:
   * one multi-row upsert per chunk. The update half is conditional (earlier first login; name,
   * permission and last login only from a strictly later login), so batches that touch one
   * player commute: any order, any concurrency, the same result.
   */
  async recordLogins(manager: EntityManager, summaries: readonly PlayerLoginSummary[]): Promise<void> {
    const isMysql = mysqlConnection(manager);
    // MySQL evaluates SET left to right, so last_login comes last: the conditions before it must see the old value.
    const later = (table: string, incoming: string): string => `${table}.last_login IS NULL OR ${table}.last_login < ${incoming}`;
    const upsert = isMysql
      ? `ON DUPLICATE KEY UPDATE
           first_login = IF(players.first_login IS NULL OR players.first_login > VALUES(first_login), VALUES(first_login), players.first_login),
           mcid = IF(${later('players', 'VALUES(last_login)')}, VALUES(mcid), players.mcid),
           mcid_key = IF(${later('players', 'VALUES(last_login)')}, VALUES(mcid_key), players.mcid_key),
           permission = IF(${later('players', 'VALUES(last_login)')}, VALUES(permission), players.permission),
           last_login = IF(${later('players', 'VALUES(last_login)')}, VALUES(last_login), players.last_login)`
      : `ON CONFLICT (uuid) DO UPDATE SET
           first_login = CASE WHEN players.first_login IS NULL OR players.first_login > excluded.first_login THEN excluded.first_login ELSE players.first_login END,
           mcid = CASE WHEN ${later('players', 'excluded.last_login')} THEN excluded.mcid ELSE players.mcid END,
           mcid_key = CASE WHEN ${later('players', 'excluded.last_login')} THEN excluded.mcid_key ELSE players.mcid_key END,
           permission = CASE WHEN ${later('players', 'excluded.last_login')} THEN excluded.permission ELSE players.permission END,
           last_login = CASE WHEN ${later('players', 'excluded.last_login')} THEN excluded.last_login ELSE players.last_login END`;
    const time = (date: Date): Date | string => datetimeParameter(manager, date);
    const now = new Date();
    // Sorted, so concurrent batches lock shared rows in one order (no deadlock on MySQL).
    const sorted = [...summaries].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
    for (let start = 0; start < sorted.length; start += UPSERT_CHUNK) {
      const chunk = sorted.slice(start, start + UPSERT_CHUNK);
      const parameters = chunk.flatMap((summary) => [
        summary.uuid,
        summary.latest.mcid,
        summary.latest.mcid.toLowerCase(),
        summary.latest.permission,
        time(summary.firstLogin),
        time(summary.latest.loggedInAt),
        time(now),
      ]);
      await manager.query(
        `INSERT INTO players (uuid, mcid, mcid_key, permission, first_login, last_login, created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')} ${upsert}`,
        parameters,
      );
    }
    // Names shown elsewhere (city owners) may have changed: cached reads must rebuild.
    if (sorted.length > 0) {
      await this.versions.bump(manager, 'players');
    }
  }
}
