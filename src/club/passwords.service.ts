import { availableParallelism } from 'node:os';
import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { FairQueue } from '../common/limits/fair-queue';
import { AppConfig } from '../config/app-config';

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane). Hashing runs on libuv's
 * thread pool, so sign-ins do not block the event loop.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes at once, at most: all cores but one. Each hash is ~30-70 ms of CPU; four of them on the
 * thread pool of a two-core machine would starve the event loop and every other request with it.
 * Extra sign-ins wait their turn, up to PASSWORD_HASH_QUEUE_LIMIT of them; one more is refused at
 * once with a 503 and Retry-After (docs/reliability.md), so a burst cannot build a queue whose
 * wait grows without end.
 */
const CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);

/** Who asks for a hash: the account it is for and the client's address (docs/reliability.md, "Fair queues"). */
export interface HashCaller {
  account: string;
  address: string;
}

@Injectable()
export class PasswordsService {
  private dummyHash: Promise<string> | undefined;
  private readonly queue: FairQueue;

  constructor(config: AppConfig) {
    // With one hashing slot, fairness comes from the queue: callers take turns by address, and an
    // account or address past its few places is told to come back (429) instead of crowding out
    // everyone else. The shares are per-caller limits, off with the others (RATE_LIMIT_ENABLED).
    const shares: Record<string, number> = config.RATE_LIMIT_ENABLED ? { account: config.PASSWORD_HASH_PLACES_PER_ACCOUNT, address: config.PASSWORD_HASH_PLACES_PER_ADDRESS } : {};
    this.queue = new FairQueue({
      name: 'the password hashing queue',
      slots: CONCURRENT_HASHES,
      maxWaiting: config.PASSWORD_HASH_QUEUE_LIMIT,
      shares,
      turnBy: 'address',
    });
  }

  /** `caller` undefined: the service's own work (the CLI), which takes no client's share. */
  hash(password: string, caller?: HashCaller): Promise<string> {
    return this.queue.run(toKeys(caller), () => argon2.hash(password, OPTIONS));
  }

  /** False for a wrong password or an unreadable hash; a full queue is an error (503 or 429), not a wrong password. */
  verify(hash: string, password: string, caller?: HashCaller): Promise<boolean> {
    return this.queue.run(toKeys(caller), async () => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    });
  }

  /** Spends the same work as a real check, so an unknown user cannot be told apart by timing. */
  async verifyAgainstNothing(password: string, caller?: HashCaller): Promise<false> {
    this.dummyHash ??= argon2.hash('no account has this password', OPTIONS);
    await this.verify(await this.dummyHash, password, caller);
    return false;
  }
}

function toKeys(caller: HashCaller | undefined): { account: string; address: string } | undefined {
  return caller ? { account: caller.account.toLowerCase(), address: caller.address } : undefined;
}
