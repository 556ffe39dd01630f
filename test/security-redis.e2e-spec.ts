import { randomInt } from 'node:crypto';
import Redis from 'ioredis';
import { AppConfig } from '../src/config/app-config';
import { expectError, newPlayer, registerClubUser, TestApp } from './support/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A random client address per run, so parallel runs sharing one Redis never share counters. */
function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

describe('rate limits in Redis (e2e)', () => {
  let first: TestApp;
  let second: TestApp;
  let redis: Redis;
  const ip = randomAddress();

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    const env = { RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', REDIS_URL };
    first = await TestApp.start(env);
    second = await TestApp.start({ ...env, RECAPTCHA_VERIFY_URL: first.app.get(AppConfig).RECAPTCHA_VERIFY_URL }, { database: first.database, captcha: first.captcha });
  });

  afterAll(async () => {
    const keys = await redis.keys(`rl:*${ip}*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    await redis.quit();
    await second?.stop({ keepDatabase: true, keepCaptcha: true });
    await first?.stop();
  });

  const countIn = async (key: string): Promise<number> => Object.values(await redis.hgetall(key)).reduce((sum, count) => sum + Number(count), 0);

  const signIn = (app: TestApp, username: string, from: string) =>
    app.post('/club/token', { username, password: 'wrong-password', recaptcha: 'pass' }, { headers: { 'x-forwarded-for': from } });

  it('shares failure counters between instances through Redis', async () => {
    const ghost = newPlayer().mcid;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expectError(await signIn(attempt % 2 === 0 ? first : second, ghost, ip), 401, 'unauthorized');
    }
    // The 10th failure blocks the pair for 15 minutes (a flag with an expiry; its count starts afresh).
    const pairKey = `sign-in:${ghost.toLowerCase()}:${ip}`;
    expect(await redis.pttl(`rl:block:acct-ip:${pairKey}`)).toBeGreaterThan(14 * 60 * 1000);
    expect(await redis.exists(`rl:fails:acct-ip:${pairKey}`)).toBe(0);
    // Counters are hashes of buckets (a sliding window): their sum is the count.
    expect(await countIn(`rl:fails:ip-day:${ip}`)).toBe(10);
    expectError(await signIn(first, ghost, ip), 429, 'rate_limited');
    expectError(await signIn(second, ghost, ip), 429, 'rate_limited');
  });

  it('shares the per-account slowdown and the known addresses between instances', async () => {
    const gameServerKey = await first.createApiKey(['game-server']);
    const user = await registerClubUser(first, gameServerKey, { password: 'right-password-1' });
    const signInAs = (app: TestApp, password: string, from: string) =>
      app.post('/club/token', { username: user.mcid, password, recaptcha: 'pass' }, { headers: { 'x-forwarded-for': from } });
    const home = randomAddress();
    expect((await signInAs(second, 'right-password-1', home)).status).toBe(200);
    expect(await redis.exists(`rl:known:${user.uuid}:${home}`)).toBe(1);
    // 20 failures spread over both instances and 20 addresses: the next attempt waits, on either instance.
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expectError(await signInAs(attempt % 2 === 0 ? first : second, 'wrong-password', randomAddress()), 401, 'unauthorized');
    }
    expect(await countIn(`rl:fails:acct:${user.uuid}`)).toBe(20);
    expectError(await signInAs(first, 'right-password-1', randomAddress()), 429, 'rate_limited');
    expectError(await signInAs(second, 'right-password-1', randomAddress()), 429, 'rate_limited');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // A success on one instance ends the slowdown for both.
    expect((await signInAs(first, 'right-password-1', home)).status).toBe(200);
    expect(await redis.exists(`rl:fails:acct:${user.uuid}`, `rl:slow:acct:${user.uuid}`)).toBe(0);
    expectError(await signInAs(second, 'wrong-password', randomAddress()), 401, 'unauthorized');
  });

  it('counts the per-address request limit in Redis', async () => {
    const result = await first.get('/health', { headers: { 'x-forwarded-for': ip } });
    expect(result.headers.get('ratelimit-limit')).toBe('600');
    const counted = await countIn(`rl:req:ip:${ip}`);
    // Every request of this file from this address so far, through either instance.
    expect(counted).toBeGreaterThanOrEqual(13);
    await second.get('/health', { headers: { 'x-forwarded-for': ip } });
    expect(await countIn(`rl:req:ip:${ip}`)).toBe(counted + 1);
  });
});
