import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { LRUCache } from 'lru-cache';
import { boundedCache, heldBy, type MemoryBounds, stringBytes } from '../common/memory/bounded-cache';
import { type Buckets, hit, liveBuckets, reward, stateOf, windowShape, type WindowShape, type WindowState } from './sliding-window';

/**
 * What one in-memory store keeps at most (docs/reliability.md, "Lifetime"). Each key holds its
 * buckets until its window ends, so a flood of distinct keys (addresses, account names) would
 * otherwise grow the process for a whole window. Past the bounds the keys written longest ago go
 * first: theirs are the windows nearest to their end, so forgetting them gives away the least.
 */
export const MEMORY_LIMITER_BOUNDS: MemoryBounds = { maxEntries: 100_000, maxBytes: 32 * 1024 * 1024 };
/** The Map slot and the array, beside the key; each bucket is a small array of two numbers. */
const ENTRY_BYTES = 64;
const BUCKET_BYTES = 48;

/** Hits of one policy per key, counted over a sliding window (sliding-window.ts). */
export interface WindowCounter {
  /** Counts `points` unless that would pass `limit` (Infinity: always counted). */
  hit(key: string, limit: number, points?: number): Promise<WindowState>;
  /** What is counted now; `msBeforeNext` against `limit`. */
  peek(key: string, limit: number): Promise<WindowState>;
  /** Takes back `points` counted lately (a hit that turned out not to count). */
  reward(key: string, points: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Replaces what is counted with `count` hits now: they are counted for a whole window from now. */
  reset(key: string, count: number): Promise<void>;
}

/** Flags with an expiry (a refusal's block, a slowdown's wait). */
export interface FlagStore {
  raise(key: string, ms: number): Promise<void>;
  /** Milliseconds until the flag expires; 0 when it is not raised. */
  msLeft(key: string): Promise<number>;
  clear(key: string): Promise<void>;
}

export class MemoryWindowCounter implements WindowCounter {
  /** Read with `peek`, so that only a write makes a key the newest (see MEMORY_LIMITER_BOUNDS). */
  private readonly entries: LRUCache<string, Array<[number, number]>>;
  readonly shape: WindowShape;

  constructor(durationMs: number, private readonly bounds: MemoryBounds = MEMORY_LIMITER_BOUNDS) {
    this.shape = windowShape(durationMs);
    this.entries = boundedCache(bounds, (key, buckets) => stringBytes(key) + ENTRY_BYTES + buckets.length * BUCKET_BYTES);
  }

  /** Keys and estimated bytes held (for tests and diagnostics). */
  get held(): { entries: number; bytes: number } {
    return heldBy(this.entries, this.bounds);
  }

  hit(key: string, limit: number, points = 1): Promise<WindowState> {
    const now = Date.now();
    const result = hit(this.entries.peek(key) ?? [], this.shape, now, limit, points);
    this.store(key, result.buckets, result.state.allowed);
    return Promise.resolve(result.state);
  }

  peek(key: string, limit: number): Promise<WindowState> {
    return Promise.resolve(stateOf(this.entries.peek(key) ?? [], this.shape, Date.now(), limit, true));
  }

  reward(key: string, points: number): Promise<void> {
    const buckets = this.entries.peek(key);
    if (buckets) {
      this.store(key, reward(buckets, this.shape, Date.now(), points), false);
    }
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }

  reset(key: string, count: number): Promise<void> {
    this.entries.delete(key);
    return this.hit(key, Infinity, count).then(() => undefined);
  }

  /** A written key becomes the newest (the last to be forgotten); a key with nothing counted is dropped. */
  private store(key: string, buckets: Array<[number, number]>, written: boolean): void {
    if (buckets.length === 0) {
      this.entries.delete(key);
    } else if (written || this.entries.has(key)) {
      this.entries.set(key, buckets);
    }
  }
}

export class MemoryFlags implements FlagStore {
  private readonly expiries: LRUCache<string, number>;

  constructor(bounds: MemoryBounds = MEMORY_LIMITER_BOUNDS) {
    this.expiries = boundedCache(bounds, (key) => stringBytes(key) + ENTRY_BYTES);
  }

  raise(key: string, ms: number): Promise<void> {
    this.expiries.set(key, Date.now() + ms);
    return Promise.resolve();
  }

  msLeft(key: string): Promise<number> {
    const expiresAt = this.expiries.peek(key);
    const left = expiresAt === undefined ? 0 : expiresAt - Date.now();
    if (expiresAt !== undefined && left <= 0) {
      this.expiries.delete(key);
    }
    return Promise.resolve(Math.max(0, left));
  }

  clear(key: string): Promise<void> {
    this.expiries.delete(key);
    return Promise.resolve();
  }
}

/**
 * A hit in one step on the Redis server, so instances sharing a key never both take the last
 * place: drops buckets that left the window, sums the rest, counts the hit when it fits (or when
 * there is no limit: ARGV[4] < 0) and returns whether it did and the buckets it saw before.
 */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local size = tonumber(ARGV[2])
local oldest = math.floor(now / size) - tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local points = tonumber(ARGV[5])
local raw = redis.call('HGETALL', KEYS[1])
local total = 0
local seen = {}
for i = 1, #raw, 2 do
  local count = tonumber(raw[i + 1])
  if tonumber(raw[i]) < oldest then
    redis.call('HDEL', KEYS[1], raw[i])
  else
    total = total + count
    seen[#seen + 1] = raw[i]
    seen[#seen + 1] = raw[i + 1]
  end
end
if limit >= 0 and total + points > limit then
  return {0, seen}
end
redis.call('HINCRBY', KEYS[1], ARGV[6], points)
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return {1, seen}
`;

/** Takes points back from the newest bucket. */
const REWARD_SCRIPT = `
local raw = redis.call('HGETALL', KEYS[1])
local newest = nil
for i = 1, #raw, 2 do
  if newest == nil or tonumber(raw[i]) > tonumber(newest) then
    newest = raw[i]
  end
end
if newest == nil then
  return 0
end
if redis.call('HINCRBY', KEYS[1], newest, -tonumber(ARGV[1])) <= 0 then
  redis.call('HDEL', KEYS[1], newest)
end
return 1
`;

/** A Lua script run by its digest, sent once more in full when the server does not know it yet. */
class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: Redis, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return client.eval(this.source, keys.length, ...keys, ...args);
      }
      throw error;
    }
  }
}

const hitScript = new LuaScript(HIT_SCRIPT);
const rewardScript = new LuaScript(REWARD_SCRIPT);

function parseBuckets(flat: unknown): Buckets {
  const values = Array.isArray(flat) ? flat.map(Number) : [];
  const buckets: Array<[number, number]> = [];
  for (let position = 0; position + 1 < values.length; position += 2) {
    buckets.push([values[position], values[position + 1]]);
  }
  return buckets;
}

/**
 * Redis first (shared by every instance), this process's memory while Redis is unreachable: a
 * command fails at once without the offline queue, a stalled one within REDIS_COMMAND_TIMEOUT_MS
 * (docs/reliability.md), and the memory store answers meanwhile.
 */
abstract class WithFallback<S> {
  constructor(
    protected readonly client: Redis,
    protected readonly fallback: S,
  ) {}

  protected async either<T>(viaRedis: () => Promise<T>, viaMemory: (memory: S) => Promise<T>): Promise<T> {
    if (this.client.status !== 'ready') {
      return viaMemory(this.fallback);
    }
    try {
      return await viaRedis();
    } catch {
      return viaMemory(this.fallback);
    }
  }
}

export class RedisWindowCounter extends WithFallback<MemoryWindowCounter> implements WindowCounter {
  private readonly shape: WindowShape;

  constructor(
    client: Redis,
    private readonly prefix: string,
    durationMs: number,
  ) {
    super(client, new MemoryWindowCounter(durationMs));
    this.shape = this.fallback.shape;
  }

  hit(key: string, limit: number, points = 1): Promise<WindowState> {
    return this.either(
      async () => {
        const now = Date.now();
        const current = Math.floor(now / this.shape.bucketMs);
        const ttl = (this.shape.buckets + 1) * this.shape.bucketMs;
        const reply = (await hitScript.run(this.client, [this.redisKey(key)], [now, this.shape.bucketMs, this.shape.buckets, Number.isFinite(limit) ? limit : -1, points, current, ttl])) as [number, unknown];
        // The script decided; the state to report follows from the buckets it saw.
        const allowed = Number(reply[0]) === 1;
        const seen = parseBuckets(reply[1]);
        const after = allowed ? hit(seen, this.shape, now, Infinity, points).buckets : liveBuckets(seen, this.shape, now);
        return stateOf(after, this.shape, now, limit, allowed);
      },
      (memory) => memory.hit(key, limit, points),
    );
  }

  peek(key: string, limit: number): Promise<WindowState> {
    return this.either(
      async () => {
        const fields = await this.client.hgetall(this.redisKey(key));
        const buckets = Object.entries(fields).map(([index, count]): [number, number] => [Number(index), Number(count)]);
        const now = Date.now();
        return stateOf(liveBuckets(buckets, this.shape, now), this.shape, now, limit, true);
      },
      (memory) => memory.peek(key, limit),
    );
  }

  reward(key: string, points: number): Promise<void> {
    return this.either(
      async () => void (await rewardScript.run(this.client, [this.redisKey(key)], [points])),
      (memory) => memory.reward(key, points),
    );
  }

  delete(key: string): Promise<void> {
    return this.either(
      async () => void (await this.client.del(this.redisKey(key))),
      (memory) => memory.delete(key),
    );
  }

  reset(key: string, count: number): Promise<void> {
    const now = Date.now();
    const redisKey = this.redisKey(key);
    const ttl = (this.shape.buckets + 1) * this.shape.bucketMs;
    return this.either(
      async () => void (await this.client.multi().del(redisKey).hset(redisKey, String(Math.floor(now / this.shape.bucketMs)), count).pexpire(redisKey, ttl).exec()),
      (memory) => memory.reset(key, count),
    );
  }

  private redisKey(key: string): string {
    return `${this.prefix}:${key}`;
  }
}

export class RedisFlags extends WithFallback<MemoryFlags> implements FlagStore {
  constructor(
    client: Redis,
    private readonly prefix: string,
  ) {
    super(client, new MemoryFlags());
  }

  raise(key: string, ms: number): Promise<void> {
    return this.either(
      async () => void (await this.client.set(`${this.prefix}:${key}`, '1', 'PX', Math.max(1, Math.round(ms)))),
      (memory) => memory.raise(key, ms),
    );
  }

  msLeft(key: string): Promise<number> {
    return this.either(
      async () => Math.max(0, await this.client.pttl(`${this.prefix}:${key}`)),
      (memory) => memory.msLeft(key),
    );
  }

  clear(key: string): Promise<void> {
    return this.either(
      async () => void (await this.client.del(`${this.prefix}:${key}`)),
      (memory) => memory.clear(key),
    );
  }
}
