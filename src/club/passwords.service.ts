import { availableParallelism } from 'node:os';
import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { FairQueue, type Reservation } from '../common/limits/fair-queue';
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

/** Who asks for a hash: the account it is for and the client's address (docs/reliability.md, "Fair shares"). */
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

  /**
   * Takes the caller's places in the hashing queue for a whole credential check, or refuses
   * (429) at once: a flood's refused sign-ins then cost no CAPTCHA verification and no database
   * read, and a place taken here cannot be lost to a race before the hash. Release it when done.
   */
  reserve(caller: HashCaller): PasswordCheck {
    const reservation = this.queue.reserve(toKeys(caller));
    return {
      verify: (hash, password) => verifyIn(reservation, hash, password),
      verifyAgainstNothing: async (password) => {
        await verifyIn(reservation, await this.dummy(), password);
        return false;
      },
      release: () => reservation.release(),
    };
  }

  /** `caller` undefined: the service's own work (the CLI), which takes no client's share. */
  hash(password: string, caller?: HashCaller): Promise<string> {
    return this.queue.run(toKeys(caller), () => argon2.hash(password, OPTIONS));
  }

  /** False for a wrong password or an unreadable hash; a full queue is an error (503 or 429), not a wrong password. */
  async verify(hash: string, password: string, caller?: HashCaller): Promise<boolean> {
    const reservation = this.queue.reserve(toKeys(caller));
    try {
      return await verifyIn(reservation, hash, password);
    } finally {
      reservation.release();
    }
  }

  /** Spends the same work as a real check, so an unknown user cannot be told apart by timing. */
  async verifyAgainstNothing(password: string, caller?: HashCaller): Promise<false> {
    await this.verify(await this.dummy(), password, caller);
    return false;
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= argon2.hash('no account has this password', OPTIONS);
    return this.dummyHash;
  }
}

/** A credential check's places in the hashing queue (`PasswordsService.reserve`). */
export interface PasswordCheck {
  verify(hash: string, password: string): Promise<boolean>;
  /** The same work as a real check, for an account that does not exist. */
  verifyAgainstNothing(password: string): Promise<false>;
  release(): void;
}

function verifyIn(reservation: Reservation, hash: string, password: string): Promise<boolean> {
  return reservation.run(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

function toKeys(caller: HashCaller | undefined): { account: string; address: string } | undefined {
  return caller ? { account: caller.account.toLowerCase(), address: caller.address } : undefined;
}
