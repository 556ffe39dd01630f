import { Injectable } from '@nestjs/common';
import type { PlayerIdentifier } from '../common/identifiers';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import type { PlayerLoginSummary } from './player-login-summary';
import { PlayerRecord, PlayersRepository } from './players.repository';

/** The shared player registry: who a uuid or a game id refers to. */
@Injectable()
export class PlayersService {
  constructor(
    private readonly players: PlayersRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  findByUuid(uuid: string): Promise<PlayerRecord | null> {
    return this.players.getByUuid(uuid.toLowerCase());
  }

  /** The current holder of a game id: of every player whose latest name it is, the one seen last. */
  findByMcid(mcid: string): Promise<PlayerRecord | null> {
    return this.players.getByMcid(mcid.toLowerCase());
  }

  /**
   * A player that exists for `/users`: seen in a login record at or after `since` (DATA_CUTOFF).
   * By game id: the current holder of the name (latest last login among players whose latest name it is).
   */
  findLoggedIn(identifier: PlayerIdentifier, since: Date): Promise<PlayerRecord | null> {
    const value = identifier.kind === 'chatid' ? identifier.value : identifier.value.toLowerCase();
    return this.players.getLoggedIn(identifier.kind, value, since);
  }

  /** Records a player seen for the first time (e.g. when a user key is issued); keeps an existing row. */
  async ensure(uuid: string, mcid: string, tx?: Transaction): Promise<void> {
    if (!tx) {
      return this.unitOfWork.transaction((inner) => this.ensure(uuid, mcid, inner));
    }
    const key = uuid.toLowerCase();
    if (await this.players.createIfAbsent(tx, key, mcid, new Date())) {
      return;
    }
    const existing = await this.players.getInTransaction(tx, key);
    // A player without login records has no better source for the name than the game server now.
    if (existing && !existing.firstLogin && existing.mcid !== mcid) {
      await this.players.rename(tx, key, mcid);
    }
  }

  /**
   * `ensure` for a batch of players (uuid lower case), in a few statements: rows for those not seen
   * yet, and the reported name for those without a login whose name differs.
   */
  async ensureAll(tx: Transaction, players: ReadonlyArray<{ uuid: string; mcid: string }>): Promise<void> {
    if (players.length === 0) {
      return;
    }
    const names = new Map(players.map((player) => [player.uuid, player.mcid]));
    await this.players.createNamedIfAbsent(tx, [...names].map(([uuid, mcid]) => ({ uuid, mcid })), new Date());
    // A player without login records has no better source for the name than the game server now.
    for (const existing of await this.players.getWithoutLoginIn(tx, [...names.keys()].sort())) {
      const mcid = names.get(existing.uuid);
      if (mcid !== undefined && existing.mcid !== mcid) {
        await this.players.rename(tx, existing.uuid, mcid);
      }
    }
  }

  /**
   * Makes each of `uuids` (lower case) a known player inside the caller's transaction: a bare row
   * (no name, no first login) for those not seen yet, as for user keys; existing rows are kept.
   * For data reported about a player before any login (votes, groups, …).
   */
  async ensureKnown(tx: Transaction, uuids: readonly string[]): Promise<void> {
    if (uuids.length > 0) {
      await this.players.createBareIfAbsent(tx, uuids, new Date());
    }
  }

  /**
   * `ensureKnown` for one player whose game id the sender may know: with a game id, the player
   * gets it as `ensure` gives it; without, a bare row.
   */
  async ensureKnownAs(tx: Transaction, uuid: string, mcid: string | null = null): Promise<void> {
    if (mcid) {
      return this.ensure(uuid, mcid, tx);
    }
    await this.ensureKnown(tx, [uuid.toLowerCase()]);
  }

  /** Keeps `players` in step with newly stored login records, inside the caller's transaction. */
  async recordLogins(tx: Transaction, summaries: readonly PlayerLoginSummary[]): Promise<void> {
    if (summaries.length === 0) {
      return;
    }
    await this.players.upsertFromLogins(tx, summaries);
  }

  /** The history import's half of `recordLogins`: only players with no row yet get one; `settleFromLogins` completes every summary at the end. */
  async addAbsentFromLogins(tx: Transaction, summaries: readonly PlayerLoginSummary[]): Promise<void> {
    if (summaries.length > 0) {
      await this.players.insertAbsentFromLogins(tx, summaries);
    }
  }

  /** Settles the summaries of `uuids` from their stored login records. */
  async settleFromLogins(tx: Transaction, uuids: readonly string[]): Promise<void> {
    if (uuids.length > 0) {
      await this.players.settleFromLogins(tx, uuids);
    }
  }

  /** Links or unlinks a chat id inside the caller's transaction. */
  async setChatid(tx: Transaction, uuid: string, chatid: string | null): Promise<void> {
    await this.players.setChatid(tx, uuid, chatid);
  }
}
