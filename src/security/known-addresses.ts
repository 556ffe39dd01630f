import type Redis from 'ioredis';
import type { LRUCache } from 'lru-cache';
import { boundedCache, heldBy, type MemoryBounds, stringBytes } from '../common/memory/bounded-cache';

/** What this process keeps in memory at most (docs/reliability.md, "Lifetime"); the least recently used are forgotten first. */
export const KNOWN_ADDRESSES_BOUNDS: MemoryBounds = { maxEntries: 100_000, maxBytes: 16 * 1024 * 1024 };
/** A number (the expiry time) and the Map's own slot, beside the key. */
const EXPIRY_BYTES = 16;

/**
 * The (account, address) pairs that proved the account lately (rule (b)'s exception): in Redis
 * when connected, shared by every instance; in this process's memory otherwise, and as the
 * fallback while Redis is unreachable. A map of expiry times rather than a limiter: 30 days is
 * past Node's longest timer (24.8 days), which would expire a timer-based entry at once.
 */
export class KnownAddresses {
  private readonly memory: LRUCache<string, number>;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
    private readonly bounds: MemoryBounds = KNOWN_ADDRESSES_BOUNDS,
  ) {
    this.memory = boundedCache(bounds, (key) => stringBytes(key) + EXPIRY_BYTES);
  }

  /** Entries and estimated bytes held in this process (for tests and diagnostics). */
  get held(): { entries: number; bytes: number } {
    return heldBy(this.memory, this.bounds);
  }

  async remember(account: string, ip: string): Promise<void> {
    const key = `${account}:${ip}`;
    this.memory.set(key, Date.now() + this.ttlSeconds * 1000);
    if (this.redis) {
      await this.redis.set(`${this.prefix}:${key}`, '1', 'EX', this.ttlSeconds);
    }
  }

  async has(account: string, ip: string): Promise<boolean> {
    const key = `${account}:${ip}`;
    if (this.redis?.status === 'ready') {
      try {
        return (await this.redis.exists(`${this.prefix}:${key}`)) === 1;
      } catch {
        // Fall through to this process's memory.
      }
    }
    const expiresAt = this.memory.get(key);
    if (expiresAt === undefined) {
      return false;
    }
    if (expiresAt <= Date.now()) {
      this.memory.delete(key);
      return false;
    }
    return true;
  }
}
