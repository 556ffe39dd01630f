import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { type MemoryBounds, stringBytes } from '../common/memory/bounded-map';
import type { LimitState } from './rate-limit-response';
import type { RedisConnection } from './redis-connection';
import type { LimitPolicy } from './rate-limits';

/**
 * What one in-memory limiter keeps at most (docs/reliability.md, "Lifetime"). Each key holds a
 * record and its expiry timer until its window ends, so a flood of distinct keys (addresses,
 * account names) would otherwise grow the process for a whole window.
 */
export const MEMORY_LIMITER_BOUNDS: MemoryBounds = { maxEntries: 100_000, maxBytes: 32 * 1024 * 1024 };
/** A record, its Timeout object and the Map slot, beside the key: an estimate. */
const RECORD_BYTES = 256;

/** rate-limiter-flexible's in-memory store (11.x): a Map of records, each with its expiry timer. */
interface MemoryStore {
  _storage: Map<string, { timeoutId?: ReturnType<typeof setTimeout> | null }>;
  set(key: string, value: number, durationSec: number): unknown;
}

/**
 * Bounds the store of a memory limiter: past the bounds, the oldest keys go first. Their windows
 * are the nearest to their end (one policy, one window length), so forgetting them gives away the
 * least; reaching the bound at all takes a flood of distinct keys.
 */
export function boundMemoryLimiter(limiter: RateLimiterMemory, bounds: MemoryBounds = MEMORY_LIMITER_BOUNDS): { held(): { entries: number; bytes: number } } {
  const store = (limiter as unknown as { _memoryStorage: MemoryStore })._memoryStorage;
  if (!(store?._storage instanceof Map) || typeof store.set !== 'function') {
    throw new Error('rate-limiter-flexible: unknown in-memory store layout; the memory bound cannot be applied');
  }
  const storage = store._storage;
  const sizes = new Map<string, number>();
  let bytes = 0;
  const set = store.set.bind(store);
  store.set = (key, value, durationSec) => {
    const result = set(key, value, durationSec);
    bytes -= sizes.get(key) ?? 0;
    sizes.delete(key);
    const size = stringBytes(key) + RECORD_BYTES;
    sizes.set(key, size);
    bytes += size;
    // Records that expired on their own left the store but not `sizes`: drop those first, then the oldest.
    for (const known of sizes.keys()) {
      if (sizes.size <= bounds.maxEntries && bytes <= bounds.maxBytes) {
        break;
      }
      const record = storage.get(known);
      if (record?.timeoutId) {
        clearTimeout(record.timeoutId);
      }
      storage.delete(known);
      bytes -= sizes.get(known)!;
      sizes.delete(known);
    }
    return result;
  };
  return { held: () => ({ entries: storage.size, bytes }) };
}

/**
 * A fixed-window limiter for one policy: in Redis when connected (shared by every instance),
 * with an in-memory insurance limiter that takes over while Redis is unreachable.
 */
export function createLimiter(policy: LimitPolicy, redis: RedisConnection): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix: policy.name, points: policy.points, duration: policy.durationSeconds });
  boundMemoryLimiter(memory);
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
