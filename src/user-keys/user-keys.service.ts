import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { USER_KEY_PATTERN } from '../common/identifiers';
import { hashSecret, newUserKey } from '../common/secrets';
import { AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../database/database-errors';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { UserKeysRepository } from './user-keys.repository';

/** A user key that was valid when read; it is spent only inside the transaction that uses it. */
export interface PendingUserKey {
  id: number;
  playerUuid: string;
}

@Injectable()
export class UserKeysService {
  constructor(
    private readonly userKeys: UserKeysRepository,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
  ) {}

  /** Issues a fresh key for a player, replacing any older one. */
  async issue(uuid: string, mcid: string): Promise<{ userkey: string; expiresAt: Date }> {
    const playerUuid = uuid.toLowerCase();
    const userkey = newUserKey();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.USER_KEY_TTL_SECONDS * 1000);
    const write = (): Promise<void> =>
      this.unitOfWork.transaction(async (tx) => {
        await this.players.ensure(playerUuid, mcid, tx);
        await this.userKeys.replace(tx, playerUuid, hashSecret(userkey), now, expiresAt);
      });
    try {
      await write();
    } catch (error) {
      // Two issues for one player at once: the unique player index rejects the loser; retry replaces the winner's key.
      if (!isUniqueViolation(error)) {
        throw error;
      }
      await write();
    }
    return { userkey, expiresAt };
  }

  /** Reads a key without spending it; 401 when malformed, unknown, expired or spent. */
  async peek(userkey: string): Promise<PendingUserKey> {
    if (!USER_KEY_PATTERN.test(userkey)) {
      throw ApiError.unauthorized('userKey.invalid');
    }
    const key = await this.userKeys.getByHash(hashSecret(userkey));
    if (!key) {
      throw ApiError.unauthorized('userKey.replaced');
    }
    if (key.spent) {
      throw ApiError.unauthorized('userKey.used');
    }
    if (key.expiresAt.getTime() <= Date.now()) {
      throw ApiError.unauthorized('userKey.expired');
    }
    return { id: key.id, playerUuid: key.playerUuid };
  }

  /**
   * Spends the key inside the caller's transaction. The conditional update is the arbiter between
   * concurrent requests: exactly one sees a changed row, the others get 401 and roll back.
   */
  async spend(tx: Transaction, key: PendingUserKey): Promise<void> {
    if (!(await this.userKeys.spend(tx, key.id, new Date()))) {
      throw ApiError.unauthorized('userKey.used');
    }
  }
}
