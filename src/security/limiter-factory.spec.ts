import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { boundMemoryLimiter, MEMORY_LIMITER_BOUNDS } from './limiter-factory';

describe(boundMemoryLimiter.name, () => {
  it('keeps at most maxEntries keys, forgetting the oldest, and still limits the keys it keeps', async () => {
    const limiter = new RateLimiterMemory({ keyPrefix: 'test', points: 2, duration: 60 });
    const bound = boundMemoryLimiter(limiter, { maxEntries: 100, maxBytes: 1024 * 1024 });
    for (let index = 0; index < 1_000; index += 1) {
      await limiter.consume(`address-${index}`);
    }
    expect(bound.held().entries).toBe(100);
    await limiter.consume('address-999');
    await expect(limiter.consume('address-999')).rejects.toBeInstanceOf(RateLimiterRes);
    // The oldest key was forgotten: its window starts again.
    await expect(limiter.consume('address-0')).resolves.toBeInstanceOf(RateLimiterRes);
  });

  it('keeps at most maxBytes (estimated), however long the keys', async () => {
    const limiter = new RateLimiterMemory({ keyPrefix: 'test', points: 5, duration: 60 });
    const bound = boundMemoryLimiter(limiter, { maxEntries: 100_000, maxBytes: 64 * 1024 });
    for (let index = 0; index < 500; index += 1) {
      await limiter.consume(`${'x'.repeat(1_000)}-${index}`);
      expect(bound.held().bytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(bound.held().entries).toBeLessThan(40);
  });

  it('has default bounds that a day of ordinary traffic does not reach', () => {
    expect(MEMORY_LIMITER_BOUNDS.maxEntries).toBeGreaterThanOrEqual(10_000);
    expect(MEMORY_LIMITER_BOUNDS.maxBytes).toBeLessThanOrEqual(64 * 1024 * 1024);
  });
});
