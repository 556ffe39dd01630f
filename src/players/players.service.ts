import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import type { PlayerIdentifier } from '../common/identifiers';
import { isUniqueViolation } from '../database/database-errors';
import type { PlayerLoginSummary } from '../users/login-batch';
import { executeCountingRows } from './affected-rows';
import { Player } from './player.entity';

/** The shared player registry: who a uuid or a game id refers to. */
@Injectable()
export class PlayersService {
  constructor(@InjectRepository(Player) private readonly players: Repository<Player>) {}

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
   * Keeps `players` in step with newly stored login records, inside the caller's transaction.
   * The updates are conditional in SQL (earlier first login, strictly later last login), so
   * batches that touch one player commute: any order, any concurrency, the same result.
   */
  async recordLogins(manager: EntityManager, summaries: readonly PlayerLoginSummary[]): Promise<void> {
    if (summaries.length === 0) {
      return;
    }
    const repository = manager.getRepository(Player);
    const known = await repository.find({ select: { uuid: true }, where: { uuid: In(summaries.map((summary) => summary.uuid)) } });
    const knownUuids = new Set(known.map((player) => player.uuid));
    const fresh = summaries.filter((summary) => !knownUuids.has(summary.uuid));
    let toUpdate: readonly PlayerLoginSummary[] = summaries.filter((summary) => knownUuids.has(summary.uuid));
    if (fresh.length > 0) {
      const now = new Date();
      const inserted = await executeCountingRows(
        manager,
        repository
          .createQueryBuilder()
          .insert()
          .into(Player)
          .orIgnore()
          .values(
            fresh.map((summary) => ({
              uuid: summary.uuid,
              mcid: summary.latest.mcid,
              mcidKey: summary.latest.mcid.toLowerCase(),
              chatid: null,
              permission: summary.latest.permission,
              firstLogin: summary.firstLogin,
              lastLogin: summary.latest.loggedInAt,
              createdAt: now,
            })),
          ),
      );
      if (inserted !== fresh.length) {
        // Another transaction created some of them meanwhile; the conditional update is safe for all.
        toUpdate = summaries;
      }
    }
    for (const summary of toUpdate) {
      await this.applyLoginSummary(manager, summary);
    }
  }

  private async applyLoginSummary(manager: EntityManager, summary: PlayerLoginSummary): Promise<void> {
    const later = 'last_login IS NULL OR last_login < :last';
    await manager
      .createQueryBuilder()
      .update(Player)
      // lastLogin is assigned last: MySQL evaluates SET left to right, and the CASEs above must see the old value.
      .set({
        firstLogin: () => 'CASE WHEN first_login IS NULL OR first_login > :first THEN :first ELSE first_login END',
        mcid: () => `CASE WHEN ${later} THEN :mcid ELSE mcid END`,
        mcidKey: () => `CASE WHEN ${later} THEN :mcidKey ELSE mcid_key END`,
        permission: () => `CASE WHEN ${later} THEN :permission ELSE permission END`,
        lastLogin: () => `CASE WHEN ${later} THEN :last ELSE last_login END`,
      })
      .where(`uuid = :uuid AND (first_login IS NULL OR first_login > :first OR ${later})`)
      .setParameters({
        uuid: summary.uuid,
        first: summary.firstLogin,
        last: summary.latest.loggedInAt,
        mcid: summary.latest.mcid,
        mcidKey: summary.latest.mcid.toLowerCase(),
        permission: summary.latest.permission,
      })
      .execute();
  }
}
