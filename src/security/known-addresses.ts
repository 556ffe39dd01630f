import type Redis from 'ioredis';

/** Entries kept in memory at most; the oldest are forgotten first. */
const MEMORY_CAPACITY = 100_000;

/**
 * The (account, address) pairs that proved the account lately (rule (b)'s exception): in Redis
 * when connected, shared by every instance; in this process's memory otherwise, and as the
 * fallback while Redis is unreachable. A map of expiry times rather than a limiter: 30 days is
 * past Node's longest timer (24.8 days), which would expire a timer-based entry at once.
 */
export class KnownAddresses {
  private readonly memory = new Map<string, number>();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  async remember(account: string, ip: string): Promise<void> {
    const key = `${account}:${ip}`;
    this.memory.delete(key);
    this.memory.set(key, Date.now() + this.ttlSeconds * 1000);
    if (this.memory.size > MEMORY_CAPACITY) {
      this.memory.delete(this.memory.keys().next().value!);
    }
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
