import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { USER_KEY_PATTERN } from '../common/identifiers';
import { hashSecret, newUserKey } from '../common/secrets';
import { AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../database/database-errors';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { UserKey } from './user-key.entity';

/** A user key that was valid when read; it is spent only inside the transaction that uses it. */
export interface PendingUserKey {
  id: number;
  playerUuid: string;
}

@Injectable()
export class UserKeysService {
  constructor(
    @InjectRepository(UserKey) private readonly keys: Repository<UserKey>,
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
      this.unitOfWork.transaction(async (manager) => {
        await this.players.ensure(playerUuid, mcid, manager);
        await manager.delete(UserKey, { playerUuid });
        await manager.insert(UserKey, { playerUuid, keyHash: hashSecret(userkey), createdAt: now, expiresAt, spentAt: null });
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
    const key = await this.keys.findOne({ where: { keyHash: hashSecret(userkey) } });
    if (!key) {
      throw ApiError.unauthorized('userKey.replaced');
    }
    if (key.spentAt) {
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
  async spend(manager: EntityManager, key: PendingUserKey): Promise<void> {
    const now = new Date();
    const result = await manager
      .createQueryBuilder()
      .update(UserKey)
      .set({ spentAt: now })
      .where('id = :id AND spent_at IS NULL AND expires_at > :now', { id: key.id, now })
      .execute();
    if (result.affected !== 1) {
      throw ApiError.unauthorized('userKey.used');
    }
  }
}
