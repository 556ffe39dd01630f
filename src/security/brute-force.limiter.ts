import { Injectable, Logger } from '@nestjs/common';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../common/errors/api-error';
import { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { createLimiter, isLimiterVerdict, toLimitState } from './limiter-factory';
import { rateLimited } from './rate-limit-response';
import { LimitPolicy, RATE_LIMITS } from './rate-limits';
import { RedisConnection } from './redis-connection';

/** Which credential check an attempt belongs to; part of the per-account key. */
export type AttemptKind = 'sign-in' | 'register';

const BLOCKED_MESSAGE = 'limits.tooManyFailures';

/**
 * Brute-force protection for sign-in and register (the classic rate-limiter-flexible login
 * pattern). Failures are counted per (account, address) and per address per day, whether or
 * not the account exists; a blocked caller gets 429 before any password or key is checked.
 * A success clears the (account, address) counter, not the daily one.
 */
@Injectable()
export class BruteForceLimiter {
  private readonly byAccountAndIp: RateLimiterAbstract | undefined;
  private readonly byIpPerDay: RateLimiterAbstract | undefined;
  private readonly logger = new Logger('BruteForce');

  constructor(
    config: AppConfig,
    redis: RedisConnection,
    private readonly metrics: MetricsService,
  ) {
    if (config.RATE_LIMIT_ENABLED) {
      this.byAccountAndIp = createLimiter(RATE_LIMITS.failuresPerAccountAndIp, redis);
      this.byIpPerDay = createLimiter(RATE_LIMITS.failuresPerIpPerDay, redis);
    }
  }

  /**
   * Runs one credential check. `account` names the account the caller is trying (a player uuid,
   * or what the caller typed when no such player exists). A 401 from `attempt` counts as a failure.
   */
  async guard<T>(kind: AttemptKind, account: string, ip: string, attempt: () => Promise<T>): Promise<T> {
    if (!this.byAccountAndIp || !this.byIpPerDay) {
      return attempt();
    }
    const accountKey = `${kind}:${account.toLowerCase()}:${ip}`;
    await this.assertNotBlocked(accountKey, ip);
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 401) {
        await this.recordFailure(accountKey, ip);
      }
      throw error;
    }
    await this.settle(this.byAccountAndIp.delete(accountKey));
    return result;
  }

  private async assertNotBlocked(accountKey: string, ip: string): Promise<void> {
    const [byAccount, byIp] = await Promise.all([this.settle(this.byAccountAndIp!.get(accountKey)), this.settle(this.byIpPerDay!.get(ip))]);
    this.throwIfSpent(RATE_LIMITS.failuresPerIpPerDay, byIp);
    this.throwIfSpent(RATE_LIMITS.failuresPerAccountAndIp, byAccount);
  }

  private throwIfSpent(policy: LimitPolicy, state: RateLimiterRes | null | undefined): void {
    if (state && state.consumedPoints >= policy.points) {
      this.metrics.rateLimitRefusals.inc({ limit: 'sign-in' });
      throw rateLimited(BLOCKED_MESSAGE, toLimitState(policy, state));
    }
  }

  private async recordFailure(accountKey: string, ip: string): Promise<void> {
    // consume() rejects once past the limit; the failure is recorded either way.
    await Promise.all([this.settle(this.byAccountAndIp!.consume(accountKey)), this.settle(this.byIpPerDay!.consume(ip))]);
  }

  /** Limiter store errors must not turn a sign-in into a 500: log and carry on (fail open). */
  private async settle<R>(operation: Promise<R>): Promise<R | undefined> {
    try {
      return await operation;
    } catch (rejection) {
      if (!isLimiterVerdict(rejection)) {
        this.logger.error({ msg: 'brute-force limiter failed', err: rejection });
      }
      return undefined;
    }
  }
}
