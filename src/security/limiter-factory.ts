import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimitState } from './rate-limit-response';
import type { RedisConnection } from './redis-connection';
import type { LimitPolicy } from './rate-limits';

/**
 * A fixed-window limiter for one policy: in Redis when connected (shared by every instance),
 * with an in-memory insurance limiter that takes over while Redis is unreachable.
 */
export function createLimiter(policy: LimitPolicy, redis: RedisConnection): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix: policy.name, points: policy.points, duration: policy.durationSeconds });
  if (!redis.client) {
    return memory;
  }
  return new RateLimiterRedis({
    storeClient: redis.client,
    keyPrefix: policy.name,
    points: policy.points,
    duration: policy.durationSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

export function toLimitState(policy: LimitPolicy, result: RateLimiterRes | null): LimitState {
  return {
    limit: policy.points,
    remaining: result ? result.remainingPoints : policy.points,
    msBeforeReset: result ? result.msBeforeNext : policy.durationSeconds * 1000,
  };
}

/** consume() rejects with a RateLimiterRes when over the limit, with an Error when the store failed. */
export function isLimiterVerdict(value: unknown): value is RateLimiterRes {
  return value instanceof RateLimiterRes;
}
