import { availableParallelism } from 'node:os';
import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { BoundedSemaphore } from '../common/limits/bounded-semaphore';
import { AppConfig } from '../config/app-config';

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane). Hashing runs on libuv's
 * thread pool, so sign-ins do not block the event loop.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes at once, at most: all cores but one. Each hash is ~30 ms of CPU; four of them on the
 * thread pool of a two-core machine would starve the event loop and every other request with it.
 * Extra sign-ins wait their turn, up to PASSWORD_HASH_QUEUE_LIMIT of them; one more is refused at
 * once with a 503 and Retry-After (docs/reliability.md), so a burst cannot build a queue whose
 * wait grows without end.
 */
const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);

@Injectable()
export class PasswordsService {
  private dummyHash: Promise<string> | undefined;
  private readonly slots: BoundedSemaphore;

  constructor(config: AppConfig) {
    this.slots = new BoundedSemaphore('the password hashing queue', CONCURRENT_HASHES, config.PASSWORD_HASH_QUEUE_LIMIT);
  }

  hash(password: string): Promise<string> {
    return this.slots.run(() => argon2.hash(password, OPTIONS));
  }

  /** False for a wrong password or an unreadable hash; a full queue is an error (503), not a wrong password. */
  verify(hash: string, password: string): Promise<boolean> {
    return this.slots.run(async () => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    });
  }

  /** Spends the same work as a real check, so an unknown user cannot be told apart by timing. */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= argon2.hash('no account has this password', OPTIONS);
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
