import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { Telemetry } from '../common/telemetry/telemetry';
import { AppConfig } from '../config/app-config';
import { KnownAddresses } from './known-addresses';
import { createCounter, createFlags } from './limiter-factory';
import { rateLimited } from './rate-limit-response';
import { LimitPolicy, RATE_LIMITS, scaledSeconds, SIGN_IN_REFUSALS, slowdownSeconds } from './rate-limits';
import { RedisConnection } from './redis-connection';
import type { WindowState } from './sliding-window';
import type { FlagStore, WindowCounter } from './window-counters';

/** Which credential check an attempt is. */
export type AttemptKind = 'sign-in' | 'register' | 'password-reset' | 'password-change' | 'account-delete';

/** The rule that refused an attempt (SECURITY.md, "Sign-in limits"). */
export type RefusalRule = 'account-address' | 'address' | 'account-slowdown' | 'account-sign-ins';

/** Told of every refusal (the sign-in limits' e2e test listens). */
export type RefusalListener = (rule: RefusalRule, kind: AttemptKind) => void;

/**
 * Failures of attempts that check a password (sign-in, change, deletion) count as failed
 * sign-ins of the account; attempts that check a user key (register, reset) have their own
 * counters, since the caller names no account the key could be tried against.
 */
const BUCKET: Record<AttemptKind, 'sign-in' | 'register'> = {
  'sign-in': 'sign-in',
  'password-change': 'sign-in',
  'account-delete': 'sign-in',
  register: 'register',
  'password-reset': 'register',
};

const MESSAGES = {
  'account-address': 'limits.tooManyFailures',
  address: 'limits.tooManyFailures',
  'account-slowdown': 'limits.accountSlowedDown',
  'account-sign-ins': 'limits.tooManySignIns',
} as const satisfies Record<RefusalRule, Parameters<typeof rateLimited>[0]>;

interface Attempt {
  kind: AttemptKind;
  /** Lower-cased account: a player uuid, what the caller typed when no such player exists, or `*`. */
  account: string;
  ip: string;
  /** A password check of an account: rule (c) and the known-address exception apply. */
  password: boolean;
}

interface Refusal {
  rule: RefusalRule;
  limit: number;
  msBeforeReset: number;
}

/**
 * Brute-force protection for every credential check (sign-in, register, password reset, change
 * and account deletion), in four rules (SECURITY.md):
 * (a) per (account, address): 10 failures in 15 min refuse that pair for 15 min;
 * (b) per address: 100 failures a day refuse the address 15 min at a time, except for an
 *     account that signed in successfully from that address within 30 days;
 * (c) per account, any address: from 20 failures in an hour each further attempt waits a delay
 *     (1 s, doubling, at most 15 min), reset by a success: a slowdown, never a lock;
 * (d) per account, any address: at most SIGN_INS_PER_ACCOUNT_PER_HOUR password checks that
 *     succeed in an hour (sliding). A place is taken before the password is checked and given
 *     back unless it succeeds, so 70 correct sign-ins at once cannot all reach the hashing queue.
 * Counters count over sliding windows (sliding-window.ts) and live in Redis when REDIS_URL is set
 * (shared by every instance), else in memory.
 * A refused caller gets 429 before any password, key or CAPTCHA is checked.
 */
@Injectable()
export class BruteForceLimiter {
  private readonly stores:
    | {
        /** Failures per (bucket, account, address): rule (a). */
        pair: WindowCounter;
        /** Rule (a)'s refusal of a pair. */
        pairBlock: FlagStore;
        /** Failures per address in a day: rule (b). */
        addressDay: WindowCounter;
        /** Rule (b)'s refusal of an address. */
        addressBlock: FlagStore;
        /** Failed password checks per account in an hour: rule (c). */
        account: WindowCounter;
        /** Rule (c)'s wait. */
        slowdown: FlagStore;
        /** Correct password checks per account in an hour: rule (d). */
        signIns: WindowCounter;
        known: KnownAddresses;
      }
    | undefined;
  private readonly ms: { pairBlock: number; addressBlock: number; firstDelay: number; maxDelay: number };
  private readonly listeners: RefusalListener[] = [];
  private readonly logger = new Logger('BruteForce');
  private readonly signInPolicy: LimitPolicy;

  constructor(
    config: AppConfig,
    redis: RedisConnection,
    private readonly telemetry: Telemetry,
  ) {
    const scale = config.RATE_LIMIT_TIME_SCALE;
    this.signInPolicy = { ...RATE_LIMITS.signInsPerAccount, points: config.SIGN_INS_PER_ACCOUNT_PER_HOUR };
    const scaled = (policy: LimitPolicy): LimitPolicy => ({ ...policy, durationSeconds: scaledSeconds(policy.durationSeconds, scale) });
    this.ms = {
      pairBlock: scaledSeconds(SIGN_IN_REFUSALS.pairBlockSeconds, scale) * 1000,
      addressBlock: scaledSeconds(SIGN_IN_REFUSALS.addressBlockSeconds, scale) * 1000,
      firstDelay: SIGN_IN_REFUSALS.firstDelaySeconds * 1000,
      maxDelay: scaledSeconds(SIGN_IN_REFUSALS.maxDelaySeconds, scale) * 1000,
    };
    if (config.RATE_LIMIT_ENABLED) {
      this.stores = {
        pair: createCounter(scaled(RATE_LIMITS.failuresPerAccountAndIp), redis),
        pairBlock: createFlags('rl:block:acct-ip', redis),
        addressDay: createCounter(scaled(RATE_LIMITS.failuresPerIpPerDay), redis),
        addressBlock: createFlags('rl:block:ip', redis),
        account: createCounter(scaled(RATE_LIMITS.failuresPerAccount), redis),
        slowdown: createFlags('rl:slow:acct', redis),
        signIns: createCounter(scaled(this.signInPolicy), redis),
        known: new KnownAddresses(redis.client, 'rl:known', scaledSeconds(SIGN_IN_REFUSALS.knownAddressSeconds, scale)),
      };
    }
  }

  /** Registers a listener told of every refusal. */
  onRefusal(listener: RefusalListener): void {
    this.listeners.push(listener);
  }

  /**
   * Runs one credential check. `account` names the account the caller is trying (a player uuid,
   * what the caller typed when no such player exists, or `*` when a user key names it). A 401
   * from `attempt` counts as a failure; a success of a password check clears the account's
   * counters and trusts the address for it.
   */
  async guard<T>(kind: AttemptKind, account: string, ip: string, attempt: () => Promise<T>): Promise<T> {
    if (!this.stores) {
      return attempt();
    }
    const subject: Attempt = { kind, account: account.toLowerCase(), ip, password: BUCKET[kind] === 'sign-in' };
    await this.assertAllowed(subject);
    const signInTaken = subject.password && (await this.takeSignIn(subject));
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      if (signInTaken) {
        // Only a correct password counts in rule (d); failures have rules (a) to (c).
        await this.settle(this.stores.signIns.reward(subject.account, 1));
      }
      if (error instanceof ApiError && error.getStatus() === 401) {
        await this.recordFailure(subject);
      }
      throw error;
    }
    if (subject.password) {
      await this.succeeded(subject.account, ip);
    } else {
      await this.settle(this.stores.pair.delete(this.pairKey(subject)));
    }
    return result;
  }

  /**
   * A proof of the account from this address (a password, or a user key for the player): clears
   * the account's failure counters and trusts the address for it for 30 days (rule (b)).
   */
  async succeeded(account: string, ip: string): Promise<void> {
    if (!this.stores) {
      return;
    }
    const key = account.toLowerCase();
    const { pair, pairBlock, account: perAccount, slowdown, known } = this.stores;
    await Promise.all([
      this.settle(pair.delete(`sign-in:${key}:${ip}`)),
      // A user key proves the player: a refused (account, address) pair is let in again at once.
      this.settle(pairBlock.clear(`sign-in:${key}:${ip}`)),
      this.settle(perAccount.delete(key)),
      this.settle(slowdown.clear(key)),
      this.settle(known.remember(key, ip)),
    ]);
  }

  private pairKey(subject: Attempt): string {
    return `${BUCKET[subject.kind]}:${subject.account}:${subject.ip}`;
  }

  private async assertAllowed(subject: Attempt): Promise<void> {
    const { pairBlock, addressBlock, slowdown, known } = this.stores!;
    const [pairMs, addressMs, slowMs] = await Promise.all([
      this.settle(pairBlock.msLeft(this.pairKey(subject))),
      this.settle(addressBlock.msLeft(subject.ip)),
      subject.password ? this.settle(slowdown.msLeft(subject.account)) : undefined,
    ]);
    const refusals: Refusal[] = [];
    if (pairMs) {
      refusals.push({ rule: 'account-address', limit: RATE_LIMITS.failuresPerAccountAndIp.points, msBeforeReset: pairMs });
    }
    if (addressMs) {
      // The exception of rule (b): an account signed in from this address lately is not refused by it.
      const trusted = subject.password && Boolean(await this.settle(known.has(subject.account, subject.ip)));
      if (!trusted) {
        refusals.push({ rule: 'address', limit: RATE_LIMITS.failuresPerIpPerDay.points, msBeforeReset: addressMs });
      }
    }
    if (slowMs) {
      refusals.push({ rule: 'account-slowdown', limit: RATE_LIMITS.failuresPerAccount.points, msBeforeReset: slowMs });
    }
    if (refusals.length > 0) {
      this.refuse(subject.kind, refusals.reduce((longest, refusal) => (refusal.msBeforeReset > longest.msBeforeReset ? refusal : longest)));
    }
  }

  /** Rule (d): takes one of the account's sign-ins of the hour, or refuses (429) when none is left. */
  private async takeSignIn(subject: Attempt): Promise<boolean> {
    const state = await this.settle(this.stores!.signIns.hit(subject.account, this.signInPolicy.points));
    if (!state) {
      return false;
    }
    if (!state.allowed) {
      // A refused hit is not counted: knocking again does not push the wait further out.
      this.refuse(subject.kind, { rule: 'account-sign-ins', limit: this.signInPolicy.points, msBeforeReset: state.msBeforeNext });
    }
    return true;
  }

  /** The one place where a credential check is refused: counted, and listeners hear of it here. */
  private refuse(kind: AttemptKind, refusal: Refusal): never {
    this.telemetry.rateLimitRefusal(refusal.rule);
    for (const listener of this.listeners) {
      listener(refusal.rule, kind);
    }
    throw rateLimited(MESSAGES[refusal.rule], { limit: refusal.limit, remaining: 0, msBeforeReset: refusal.msBeforeReset });
  }

  private async recordFailure(subject: Attempt): Promise<void> {
    const { pair, pairBlock, addressDay, addressBlock, account, slowdown } = this.stores!;
    const pairKey = this.pairKey(subject);
    const [pairCount, dayCount, accountCount] = await Promise.all([
      this.count(pair, pairKey),
      this.count(addressDay, subject.ip),
      subject.password ? this.count(account, subject.account) : undefined,
    ]);
    const writes: Array<Promise<unknown>> = [];
    if (pairCount && pairCount.count >= RATE_LIMITS.failuresPerAccountAndIp.points) {
      // The pair is refused for the block time, then starts afresh (its failures are forgotten).
      writes.push(this.settle(pairBlock.raise(pairKey, this.ms.pairBlock)), this.settle(pair.delete(pairKey)));
    }
    if (dayCount && dayCount.count >= RATE_LIMITS.failuresPerIpPerDay.points) {
      writes.push(this.settle(addressBlock.raise(subject.ip, this.ms.addressBlock)));
    }
    const failures = accountCount?.count ?? 0;
    const delaySeconds = slowdownSeconds(failures, RATE_LIMITS.failuresPerAccount.points, this.ms.firstDelay / 1000, this.ms.maxDelay / 1000);
    if (delaySeconds > 0) {
      writes.push(this.settle(slowdown.raise(subject.account, delaySeconds * 1000)));
      // Once slowed down, the count lives until an hour without failures (or a success), so the
      // delays keep growing instead of starting over as the first failures leave the window.
      writes.push(this.settle(account.reset(subject.account, failures)));
    }
    await Promise.all(writes);
  }

  /** Counts one failure (never refused: failures are counted, the flags refuse) and returns the count. */
  private count(counter: WindowCounter, key: string): Promise<WindowState | undefined> {
    return this.settle(counter.hit(key, Infinity));
  }

  /** Limiter store errors must not turn a sign-in into a 500: log and carry on (fail open). */
  private async settle<R>(operation: Promise<R>): Promise<R | undefined> {
    try {
      return await operation;
    } catch (error) {
      this.logger.error({ msg: 'brute-force limiter failed', err: error });
      return undefined;
    }
  }
}
