import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { PlayerIdentifier } from '../common/identifiers';
import { isUniqueViolation } from '../database/database-errors';
import type { PlayerLoginSummary } from '../users/login-batch';
import { datetimeParameter, isMysql as mysqlConnection } from '../database/affected-rows';
import { DataVersions } from '../database/data-versions';
import { Player } from './player.entity';

/** Rows per upsert statement: 7 parameters each stays far below SQLite's and MySQL's placeholder limits. */
const UPSERT_CHUNK = 500;

/** The shared player registry: who a uuid or a game id refers to. */
@Injectable()
export class PlayersService {
  constructor(
    @InjectRepository(Player) private readonly players: Repository<Player>,
    private readonly versions: DataVersions,
  ) {}

  findByUuid(uuid: string): Promise<Player | null> {
    return this.players.findOneBy({ uuid: uuid.toLowerCase() });
  }

  /** The current holder of a game id: of every player whose latest name it is, the one seen last. */
  findByMcid(mcid: string): Promise<Player | null> {
    return this.players
      .createQueryBuilder('player')
      .where('player.mcid_key = :key', { key: mcid.toLowerCase() })
      .orderBy('player.last_login', 'DESC')
      .addOrderBy('player.created_at', 'DESC')
      .limit(1)
      .getOne();
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
  findLoggedIn(identifier: PlayerIdentifier, since: Date): Promise<Player | null> {
    const query = this.players.createQueryBuilder('player').where('player.last_login >= :since', { since });
    switch (identifier.kind) {
      case 'uuid':
        query.andWhere('player.uuid = :uuid', { uuid: identifier.value.toLowerCase() });
        break;
      case 'chatid':
        query.andWhere('player.chatid = :chatid', { chatid: identifier.value });
        break;
      case 'mcid':
        // Served by IDX_players_mcid_key_last_login: one index seek, newest first.
        query.andWhere('player.mcid_key = :key', { key: identifier.value.toLowerCase() }).orderBy('player.last_login', 'DESC');
        break;
    }
    return query.limit(1).getOne();
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
