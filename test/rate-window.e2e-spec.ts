import { randomInt } from 'node:crypto';
import Redis from 'ioredis';
import { AppConfig } from '../src/config/app-config';
import { RATE_LIMITS } from '../src/security/rate-limits';
import { RedisConnection } from '../src/security/redis-connection';
import { TestApp } from './support/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = RATE_LIMITS.perIp.points;
const WINDOW_MS = RATE_LIMITS.perIp.durationSeconds * 1000;

/**
 * No double bursts (SECURITY.md, "Limits"): the per-address request limit counts over a sliding
 * window, so the limit sent just before a fixed window's boundary and again just after it no
 * longer gets through twice (1,199 of 2 × 600 did within 2.1 s). The clock is moved by hand
 * (`Date.now`, which the server in this process reads too), so the test takes seconds, not minutes.
 */
function boundarySuite(name: string, env: () => Record<string, string>): void {
  describe(name, () => {
    let app: TestApp;
    let now = 0;

    beforeAll(async () => {
      app = await TestApp.start({ RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', ...env() });
      // Until Redis is connected the limiter counts in memory (docs/reliability.md): wait for it.
      const client = app.app.get(RedisConnection).client;
      for (let tries = 0; client && client.status !== 'ready' && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });

    afterEach(() => {
      jest.restoreAllMocks();
    });

    afterAll(async () => {
      await app?.stop();
    });

    /** `count` requests at the current (moved) time from `ip`; how many got 200. */
    async function burst(ip: string, count: number): Promise<number> {
      let passed = 0;
      for (let sent = 0; sent < count; sent += 100) {
        const results = await Promise.all(Array.from({ length: Math.min(100, count - sent) }, () => app.get('/health', { headers: { 'x-forwarded-for': ip } })));
        passed += results.filter((result) => result.status === 200).length;
        expect(results.filter((result) => ![200, 429].includes(result.status))).toEqual([]);
      }
      return passed;
    }

    it(`lets at most 1.5 × ${LIMIT} through across a window boundary (in fact at most ${LIMIT} in any window)`, async () => {
      const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      // A window that started with one request; the rest of the limit 0.1 s before it would end,
      // and the limit again 0.1 s after: a fixed window lets 1 + 599 + 600 through.
      const start = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS * 10 + 1234;
      jest.spyOn(Date, 'now').mockImplementation(() => now);
      now = start;
      const first = await burst(ip, 1);
      now = start + WINDOW_MS - 100;
      const before = await burst(ip, LIMIT - 1);
      now = start + WINDOW_MS + 100;
      const after = await burst(ip, LIMIT);
      expect(first + before).toBe(LIMIT);
      // Within the 0.2 s around the boundary, and within the window that ends just after it:
      expect(before + after).toBeLessThanOrEqual(1.5 * LIMIT);
      expect(first + before + after).toBeLessThanOrEqual(LIMIT);
      // Once those have left the window (a hit is counted for a window and at most a tenth more),
      // the address gets its whole limit again.
      now = start + WINDOW_MS * 2.2;
      expect(await burst(ip, LIMIT)).toBe(LIMIT);
    });
  });
}

boundarySuite('per-address request limit across a window boundary, in memory (e2e)', () => ({}));

describe('per-address request limit across a window boundary, in Redis (e2e)', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await redis.quit();
  });

  boundarySuite('counted in Redis', () => ({ REDIS_URL }));

  it('keeps the buckets in a Redis hash per address that expires by itself', async () => {
    const app = await TestApp.start({ RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', REDIS_URL });
    const second = await TestApp.start({ RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', REDIS_URL, RECAPTCHA_VERIFY_URL: app.app.get(AppConfig).RECAPTCHA_VERIFY_URL }, { database: app.database, captcha: app.captcha });
    try {
      const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      await app.get('/health', { headers: { 'x-forwarded-for': ip } });
      const result = await second.get('/health', { headers: { 'x-forwarded-for': ip } });
      expect(result.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 2));
      const key = `${RATE_LIMITS.perIp.name}:${ip}`;
      expect(await redis.type(key)).toBe('hash');
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(WINDOW_MS);
      expect(ttl).toBeLessThanOrEqual(WINDOW_MS * 1.1);
      await redis.del(key);
    } finally {
      await second.stop({ keepDatabase: true, keepCaptcha: true });
      await app.stop();
    }
  });
});
