import { randomInt } from 'node:crypto';
import { AppConfig } from '../src/config/app-config';
import { BruteForceLimiter, RefusalRule } from '../src/security/brute-force.limiter';
import { expectError, HttpResult, registerClubUser, TestApp } from './support/test-app';

const PASSWORD = 'right-password-1';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A random client address, so runs sharing one Redis never share counters. */
function address(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** A short random prefix for the names of players that do not exist (game ids are at most 16 characters). */
function nameTag(): string {
  return `g${randomInt(1_000_000_000).toString(36)}`;
}

function from(ip: string): { headers: Record<string, string> } {
  return { headers: { 'x-forwarded-for': ip } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectRefused(result: HttpResult, maxRetryAfter: number): number {
  expectError(result, 429, 'rate_limited');
  const retryAfter = Number(result.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
  return retryAfter;
}

/** Records which rule refused each 429, through the limiter's one refusal hook. */
function refusals(app: TestApp): RefusalRule[] {
  const seen: RefusalRule[] = [];
  app.app.get(BruteForceLimiter).onRefusal((rule) => seen.push(rule));
  return seen;
}

/**
 * The sign-in limits of SECURITY.md on every credential check: (a) per (account, address),
 * (b) per address with the known-address exception, (c) the per-account slowdown.
 */
function signInLimitSuite(name: string, env: Record<string, string>): void {
  describe(name, () => {
    let app: TestApp;
    let gameServerKey: string;
    let refused: RefusalRule[];

    beforeAll(async () => {
      // Failures are sent ten at a time from one address: the hashing queue's share per address
      // (docs/reliability.md, "Fair shares") is raised to ten so that only the sign-in rules answer.
      app = await TestApp.start({ RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '1', PASSWORD_HASH_PLACES_PER_ADDRESS: '10', ...env });
      gameServerKey = await app.createApiKey(['game-server']);
      refused = refusals(app);
    });

    afterAll(async () => {
      await app?.stop();
    });

    const signIn = (username: string, password: string, ip: string) => app.post('/club/token', { username, password, recaptcha: 'pass' }, from(ip));

    it('(b) refuses an address after 100 failures a day, except for an account that signed in from it before', async () => {
      const ip = address();
      const tag = nameTag();
      const regular = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      const stranger = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      expect((await signIn(regular.mcid, PASSWORD, ip)).status).toBe(200);
      // 100 failures over 25 names (4 each): only the per-address rule is reached.
      for (let batch = 0; batch < 10; batch += 1) {
        const results = await Promise.all(Array.from({ length: 10 }, (_, index) => signIn(`${tag}_${(batch * 10 + index) % 25}`, 'wrong-password', ip)));
        expect(results.map((result) => result.status)).toEqual(Array(10).fill(401));
      }
      // The shared address is refused for 15 minutes at a time...
      expectRefused(await signIn(stranger.mcid, PASSWORD, ip), 15 * 60);
      expect(refused.at(-1)).toBe('address');
      // ...but the account that signed in from it before still can (a wrong password is an ordinary 401).
      expectError(await signIn(regular.mcid, 'wrong-password', ip), 401, 'unauthorized');
      expect((await signIn(regular.uuid, PASSWORD, ip)).status).toBe(200);
      // The stranger is not refused elsewhere.
      expect((await signIn(stranger.mcid, PASSWORD, address())).status).toBe(200);
    });

    it('(c) slows an account down after 20 failures an hour from any addresses, doubling the delay, until a success', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      for (let attempt = 0; attempt < 20; attempt += 1) {
        expectError(await signIn(user.mcid, `wrong-${attempt}`, address()), 401, 'unauthorized');
      }
      // From any address, even with the right password: wait 1 s first.
      const slowed = await signIn(user.mcid, PASSWORD, address());
      expect(expectRefused(slowed, 1)).toBe(1);
      expect(slowed.body).toMatchObject({
        message: 'Too many failed attempts for this account; attempts are slowed down. Try again in 1 s.',
        message_ja: expect.stringContaining('1 秒後にもう一度お試しください'),
      });
      expect(refused.at(-1)).toBe('account-slowdown');
      await sleep(1100);
      expectError(await signIn(user.mcid, 'wrong-again', address()), 401, 'unauthorized');
      expect(expectRefused(await signIn(user.uuid, PASSWORD, address()), 2)).toBe(2);
      await sleep(2100);
      expectError(await signIn(user.mcid, 'wrong-again', address()), 401, 'unauthorized');
      expect(expectRefused(await signIn(user.mcid, PASSWORD, address()), 4)).toBeGreaterThanOrEqual(3);
      await sleep(4100);
      // Never a lock: after the delay the right password works, and the success resets the slowdown.
      expect((await signIn(user.mcid, PASSWORD, address())).status).toBe(200);
      expectError(await signIn(user.mcid, 'wrong-after', address()), 401, 'unauthorized');
      expectError(await signIn(user.mcid, 'wrong-after', address()), 401, 'unauthorized');
    });

    it('counts a wrong password on change and deletion as a failed sign-in of the pair', async () => {
      const ip = address();
      const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expectError(await app.post('/club/password', { usertoken: user.usertoken, password: 'wrong', newPassword: 'new-password-1', recaptcha: 'pass' }, from(ip)), 401, 'unauthorized');
        expectError(await app.post('/club/@me/delete', { usertoken: user.usertoken, password: 'wrong', recaptcha: 'pass' }, from(ip)), 401, 'unauthorized');
      }
      const captchaCalls = app.captcha.requests.length;
      expectRefused(await signIn(user.mcid, PASSWORD, ip), 15 * 60);
      expectRefused(await app.post('/club/password', { usertoken: user.usertoken, password: PASSWORD, newPassword: 'new-password-1', recaptcha: 'pass' }, from(ip)), 15 * 60);
      expectRefused(await app.post('/club/@me/delete', { usertoken: user.usertoken, password: PASSWORD, recaptcha: 'pass' }, from(ip)), 15 * 60);
      expect(refused.at(-1)).toBe('account-address');
      // Refused before the CAPTCHA or the password was checked; the account is intact elsewhere.
      expect(app.captcha.requests.length).toBe(captchaCalls);
      expect((await signIn(user.mcid, PASSWORD, address())).status).toBe(200);
    });

    it('counts bad user keys on reset and register together, and refuses a good key from that address', async () => {
      const ip = address();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const path = attempt % 2 === 0 ? '/club/password/reset' : '/club/register';
        expectError(await app.post(path, { userkey: `Wrongkey${String.fromCharCode(97 + attempt)}x`, password: PASSWORD, recaptcha: 'pass' }, from(ip)), 401, 'unauthorized');
      }
      const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      const userkey = await app.issueUserKey(gameServerKey, user.uuid, user.mcid);
      expectRefused(await app.post('/club/password/reset', { userkey, password: 'new-password-1', recaptcha: 'pass' }, from(ip)), 15 * 60);
      // Refused before the key was looked at: it still works from elsewhere.
      expect((await app.post('/club/password/reset', { userkey, password: 'new-password-1', recaptcha: 'pass' }, from(address()))).status).toBe(200);
    });

    it('lets a reset with a user key end the slowdown of the account', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      for (let attempt = 0; attempt < 20; attempt += 1) {
        expectError(await signIn(user.mcid, `wrong-${attempt}`, address()), 401, 'unauthorized');
      }
      const userkey = await app.issueUserKey(gameServerKey, user.uuid, user.mcid);
      expect((await app.post('/club/password/reset', { userkey, password: 'recovered-pass', recaptcha: 'pass' }, from(address()))).status).toBe(200);
      expect((await signIn(user.mcid, 'recovered-pass', address())).status).toBe(200);
    });
  });
}

signInLimitSuite('sign-in limits in memory (e2e)', {});
// Random addresses and new players per run: runs sharing one Redis never share counters (all keys expire).
signInLimitSuite('sign-in limits in Redis (e2e)', { REDIS_URL });

describe('sign-in limits expire (e2e, RATE_LIMIT_TIME_SCALE)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    // 15 minutes become 5 s; production refuses any scale but 1 (test/config).
    // Ten failures at a time from one address: see the queue's share above.
    app = await TestApp.start({ RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '1', RATE_LIMIT_TIME_SCALE: '0.005', PASSWORD_HASH_PLACES_PER_ADDRESS: '10' });
    gameServerKey = await app.createApiKey(['game-server']);
    expect(app.app.get(AppConfig).RATE_LIMIT_TIME_SCALE).toBe(0.005);
  });

  afterAll(async () => {
    await app?.stop();
  });

  const signIn = (username: string, password: string, ip: string) => app.post('/club/token', { username, password, recaptcha: 'pass' }, from(ip));

  it('(a) refuses an (account, address) pair after 10 failures for the block time, then lets it try again', async () => {
    const ip = address();
    const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expectError(await signIn(user.mcid, 'wrong-password', ip), 401, 'unauthorized');
    }
    expectRefused(await signIn(user.mcid, PASSWORD, ip), 5);
    await sleep(5500);
    expect((await signIn(user.mcid, PASSWORD, ip)).status).toBe(200);
  });

  it('(b) refuses a shared address for the block time at a time: after it, one more failure refuses it again', async () => {
    const ip = address();
    const tag = nameTag();
    const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(Array.from({ length: 10 }, (_, index) => signIn(`${tag}_${(batch * 10 + index) % 25}`, 'wrong-password', ip)));
    }
    expectRefused(await signIn(user.mcid, PASSWORD, ip), 5);
    await sleep(5500);
    expectError(await signIn(`${tag}_x`, 'wrong-password', ip), 401, 'unauthorized');
    expectRefused(await signIn(user.mcid, PASSWORD, ip), 5);
    await sleep(5500);
    expect((await signIn(user.mcid, PASSWORD, ip)).status).toBe(200);
  });
});

describe('RATE_LIMIT_TIME_SCALE', () => {
  it('is refused in production', async () => {
    const { loadConfig } = await import('../src/config/app-config');
    expect(() => loadConfig({ NODE_ENV: 'production', RECAPTCHA_SECRET: 'secret', RATE_LIMIT_TIME_SCALE: '0.5' })).toThrow(/RATE_LIMIT_TIME_SCALE/);
    expect(loadConfig({ NODE_ENV: 'production', RECAPTCHA_SECRET: 'secret' }).RATE_LIMIT_TIME_SCALE).toBe(1);
  });
});
