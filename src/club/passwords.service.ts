import { availableParallelism } from 'node:os';
import { Injectable } from '@nestjs/common';
import { Semaphore } from 'async-mutex';
import * as argon2 from 'argon2';

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane). Hashing runs on libuv's
 * thread pool, so sign-ins do not block the event loop.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes at once, at most: all cores but one. Each hash is ~30 ms of CPU; four of them on the
 * thread pool of a two-core machine would starve the event loop and every other request with it.
 * Extra sign-ins wait their turn instead.
 */
const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);

@Injectable()
export class PasswordsService {
  private dummyHash: Promise<string> | undefined;
  private readonly slots = new Semaphore(CONCURRENT_HASHES);

  hash(password: string): Promise<string> {
    return this.slots.runExclusive(() => argon2.hash(password, OPTIONS));
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await this.slots.runExclusive(() => argon2.verify(hash, password));
    } catch {
      return false;
    }
  }

  /** Spends the same work as a real check, so an unknown user cannot be told apart by timing. */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= argon2.hash('no account has this password', OPTIONS);
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
