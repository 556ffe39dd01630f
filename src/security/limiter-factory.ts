import type { LimitState } from './rate-limit-response';
import type { RedisConnection } from './redis-connection';
import type { LimitPolicy } from './rate-limits';
import type { WindowState } from './sliding-window';
import { type FlagStore, MemoryFlags, MemoryWindowCounter, RedisFlags, RedisWindowCounter, type WindowCounter } from './window-counters';

/**
 * The counter of one policy over a sliding window: in Redis when connected (shared by every
 * instance), with this process's memory taking over while Redis is unreachable; in memory only
 * without REDIS_URL.
 */
export function createCounter(policy: LimitPolicy, redis: RedisConnection): WindowCounter {
  const durationMs = policy.durationSeconds * 1000;
  return redis.client ? new RedisWindowCounter(redis.client, policy.name, durationMs) : new MemoryWindowCounter(durationMs);
}

/** Flags with an expiry (blocks, slowdowns), stored like the counters. */
export function createFlags(name: string, redis: RedisConnection): FlagStore {
  return redis.client ? new RedisFlags(redis.client, name) : new MemoryFlags();
}

/**
 * The `RateLimit-*` view of a counter: after a hit that passed, the quota is whole again once
 * everything counted has left the window; after a refusal, the next hit passes in `msBeforeNext`.
 */
export function toLimitState(policy: LimitPolicy, state: WindowState): LimitState {
  return {
    limit: policy.points,
    remaining: policy.points - state.count,
    msBeforeReset: state.allowed ? state.msUntilEmpty || policy.durationSeconds * 1000 : state.msBeforeNext,
  };
}
