import { AppConfig } from '../src/config/app-config';
import { RATE_LIMITS } from '../src/security/rate-limits';
import { expectError, HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

const CLUB_SITE = 'https://club.example.org';
const PASSWORD = 'right-password-1';

/** A distinct client address per scenario, honoured because these apps run with TRUST_PROXY. */
let nextAddress = 1;
function clientAddress(): string {
  nextAddress += 1;
  return `198.51.100.${nextAddress}`;
}

function from(ip: string): { headers: Record<string, string> } {
  return { headers: { 'x-forwarded-for': ip } };
}

function expectRateLimited(result: HttpResult, limit: number, maxRetryAfter: number): void {
  expectError(result, 429, 'rate_limited');
  const retryAfter = Number(result.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
  expect(result.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(result.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(result.headers.get('ratelimit-reset'))).toBe(retryAfter);
}

describe('security hardening (e2e)', () => {
  /** Limits off (the harness default), no CORS, no proxy. */
  let plain: TestApp;
  /** Limits on, behind a trusted proxy, CORS allowlist. */
  let guarded: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    plain = await TestApp.start();
    // Failed sign-ins go ten at a time from one address: the hashing queue's share per address
    // (docs/reliability.md, "Fair shares") is raised to ten so that only the sign-in rules answer.
    guarded = await TestApp.start({ RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', CORS_ORIGINS: `${CLUB_SITE}, https://admin.example.org/`, PASSWORD_HASH_PLACES_PER_ADDRESS: '10' });
    gameServerKey = await guarded.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await guarded?.stop();
    await plain?.stop();
  });

  const signIn = (app: TestApp, username: string, password: string, ip: string) =>
    app.post('/club/token', { username, password, recaptcha: 'pass' }, from(ip));

  describe('security headers', () => {
    it('sends a locked-down CSP and the rest of the security headers on success and error responses', async () => {
      // Every header, value for value: the set helmet 8 sends with our options, which the service
      // now writes out itself (docs/design-and-performance.md, "Only public APIs of libraries").
      const expected = {
        'content-security-policy': "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
        'cache-control': 'no-store',
      };
      for (const result of [await plain.get('/health'), await plain.get('/no/such/path'), await plain.request('DELETE', '/club/logout')]) {
        expect(Object.fromEntries(Object.keys(expected).map((name) => [name, result.headers.get(name)]))).toEqual(expected);
        expect(result.headers.get('x-powered-by')).toBeNull();
      }
    });

    it('keeps the Swagger UI loadable: external scripts from self, inline styles allowed on /docs only', async () => {
      const page = await plain.get('/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data:");
      // Every script is an external file (an inline one would be blocked by script-src 'self').
      const scripts = [...page.text.matchAll(/<script([^>]*)>/g)].map((match) => match[1] ?? '');
      expect(scripts.length).toBeGreaterThan(0);
      for (const attributes of scripts) {
        const src = /src=["']([^"']+)["']/.exec(attributes)?.[1];
        expect(src).toBeDefined();
        expect(src).not.toMatch(/^(https?:)?\/\//);
        const asset = await plain.get(new URL(src!, `${plain.baseUrl}/docs`).pathname);
        expect(asset.status).toBe(200);
      }
      expect((await plain.get('/docs/openapi.json')).status).toBe(200);
    });
  });

  describe('CORS', () => {
    it('answers an allowed origin, with the rate-limit headers exposed', async () => {
      for (const origin of [CLUB_SITE, 'https://admin.example.org']) {
        const result = await guarded.get('/health', { headers: { origin } });
        expect(result.headers.get('access-control-allow-origin')).toBe(origin);
        expect(result.headers.get('access-control-expose-headers')).toContain('Retry-After');
        expect(result.headers.get('access-control-allow-credentials')).toBeNull();
      }
    });

    it('sends no CORS headers to any other origin, nor when CORS_ORIGINS is unset', async () => {
      for (const [app, origin] of [
        [guarded, 'https://evil.example.com'],
        [guarded, `${CLUB_SITE}.evil.example.com`],
        [guarded, 'null'],
        [plain, CLUB_SITE],
      ] as const) {
        const result = await app.get('/health', { headers: { origin } });
        expect(result.status).toBe(200);
        const corsHeaders = [...result.headers.keys()].filter((name) => name.startsWith('access-control-'));
        expect(corsHeaders).toEqual([]);
      }
    });

    it('answers a preflight from an allowed origin and refuses one from another', async () => {
      const preflight = (origin: string) =>
        guarded.request('OPTIONS', '/club/nickname', {
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
        });
      const allowed = await preflight(CLUB_SITE);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(CLUB_SITE);
      expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
      expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      const refused = await preflight('https://evil.example.com');
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('keeps 404 for unknown paths and 405 with Allow for known ones despite the preflight route', async () => {
      expectError(await guarded.get('/no/such/path'), 404, 'not_found');
      const wrongMethod = expectError(await guarded.request('DELETE', '/club/logout'), 405, 'method_not_allowed');
      expect(wrongMethod.headers.get('allow')).toBe('POST');
    });
  });

  describe('per-address request limit', () => {
    it(`allows ${RATE_LIMITS.perIp.points} requests a minute per address, then answers 429 with Retry-After`, async () => {
      const ip = clientAddress();
      const first = await guarded.get('/health', from(ip));
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-limit')).toBe(String(RATE_LIMITS.perIp.points));
      expect(first.headers.get('ratelimit-remaining')).toBe(String(RATE_LIMITS.perIp.points - 1));
      // The window slides in tenths: a request is counted for a minute and at most 6 s more.
      expect(Number(first.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(66);
      const statuses: number[] = [];
      for (let sent = 1; sent < RATE_LIMITS.perIp.points; sent += 50) {
        const batch = Math.min(50, RATE_LIMITS.perIp.points - sent);
        const results = await Promise.all(Array.from({ length: batch }, () => guarded.get('/health', from(ip))));
        statuses.push(...results.map((result) => result.status));
      }
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expectRateLimited(await guarded.get('/health', from(ip)), RATE_LIMITS.perIp.points, 66);
      // Counted before the body is read or the route runs: a POST is refused the same way.
      expectRateLimited(await guarded.post('/club/register', { userkey: 'x' }, from(ip)), RATE_LIMITS.perIp.points, 66);
      // Another address is unaffected.
      expect((await guarded.get('/health', from(clientAddress()))).status).toBe(200);
    });

    it('is off with RATE_LIMIT_ENABLED=false: no RateLimit headers', async () => {
      const result = await plain.get('/health');
      expect(result.headers.get('ratelimit-limit')).toBeNull();
    });
  });

  describe('sign-in brute force', () => {
    it('blocks an (account, address) pair after 10 failures, before the CAPTCHA or password is checked', async () => {
      const user = await registerClubUser(guarded, gameServerKey, { password: PASSWORD });
      const ip = clientAddress();
      for (let attempt = 0; attempt < RATE_LIMITS.failuresPerAccountAndIp.points; attempt += 1) {
        expectError(await signIn(guarded, user.mcid, `wrong-password-${attempt}`, ip), 401, 'unauthorized');
      }
      const captchaCalls = guarded.captcha.requests.length;
      // Even the right password is refused now, by game id or by uuid (one counter per player).
      expectRateLimited(await signIn(guarded, user.mcid, PASSWORD, ip), 10, 15 * 60);
      expectRateLimited(await signIn(guarded, user.uuid, PASSWORD, ip), 10, 15 * 60);
      expectRateLimited(await guarded.get('/club/token', { query: { username: user.mcid, password: PASSWORD, recaptcha: 'pass' }, ...from(ip) }), 10, 15 * 60);
      expect(guarded.captcha.requests.length).toBe(captchaCalls);
      // The same account from another address, and another account from this address, still work.
      expect((await signIn(guarded, user.mcid, PASSWORD, clientAddress())).status).toBe(200);
      const other = await registerClubUser(guarded, gameServerKey, { password: PASSWORD });
      expect((await signIn(guarded, other.mcid, PASSWORD, ip)).status).toBe(200);
    });

    it('counts failures for accounts that do not exist, with the same answer', async () => {
      const ip = clientAddress();
      const ghost = newPlayer().mcid;
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expectError(await signIn(guarded, ghost, 'whatever-pass', ip), 401, 'unauthorized');
      }
      const blocked = await signIn(guarded, ghost, 'whatever-pass', ip);
      expectRateLimited(blocked, 10, 15 * 60);
      expect(blocked.body.message).toMatch(/^Too many failed attempts\. Try again in \d+ s\.$/);
    });

    it('clears the account counter after a successful sign-in', async () => {
      const user = await registerClubUser(guarded, gameServerKey, { password: PASSWORD });
      const ip = clientAddress();
      for (let round = 0; round < 2; round += 1) {
        for (let attempt = 0; attempt < 9; attempt += 1) {
          expectError(await signIn(guarded, user.mcid, 'wrong-password', ip), 401, 'unauthorized');
        }
        expect((await signIn(guarded, user.mcid, PASSWORD, ip)).status).toBe(200);
      }
    });

    it('refuses an address for 15 minutes after 100 failures a day across accounts, for sign-in and register alike', async () => {
      const user = await registerClubUser(guarded, gameServerKey, { password: PASSWORD });
      const ip = clientAddress();
      const statuses: number[] = [];
      // 100 failures spread over 20 names (5 each), so only the per-address limit is reached.
      for (let batch = 0; batch < 10; batch += 1) {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, index) => signIn(guarded, `nb${nextAddress}_${(batch * 10 + index) % 20}`, 'wrong-password', ip)),
        );
        statuses.push(...results.map((result) => result.status));
      }
      expect(statuses.filter((status) => status !== 401)).toEqual([]);
      expectRateLimited(await signIn(guarded, user.mcid, PASSWORD, ip), 100, 15 * 60);
      const userkey = await guarded.issueUserKey(gameServerKey, newPlayer().uuid, newPlayer().mcid);
      expectRateLimited(await guarded.post('/club/register', { userkey, password: PASSWORD, recaptcha: 'pass' }, from(ip)), 100, 15 * 60);
      const refused = await signIn(guarded, user.mcid, PASSWORD, ip);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    });
  });

  describe('register brute force', () => {
    it('blocks an address after 10 bad user keys and leaves a good key unspent', async () => {
      const ip = clientAddress();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expectError(await guarded.post('/club/register', { userkey: `Wrongkey${String.fromCharCode(97 + attempt)}x`, password: PASSWORD, recaptcha: 'pass' }, from(ip)), 401, 'unauthorized');
      }
      const player = newPlayer();
      const userkey = await guarded.issueUserKey(gameServerKey, player.uuid, player.mcid);
      expectRateLimited(await guarded.post('/club/register', { userkey, password: PASSWORD, recaptcha: 'pass' }, from(ip)), 10, 15 * 60);
      // Refused before the key was looked at: it still works from elsewhere.
      expect((await guarded.post('/club/register', { userkey, password: PASSWORD, recaptcha: 'pass' }, from(clientAddress()))).status).toBe(201);
    });
  });

  describe('TRUST_PROXY', () => {
    it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
      // Limits on, no proxy trusted: every request counts against the socket address.
      const direct = await TestApp.start(
        { RATE_LIMIT_ENABLED: 'true', RECAPTCHA_VERIFY_URL: guarded.app.get(AppConfig).RECAPTCHA_VERIFY_URL },
        { database: guarded.database, captcha: guarded.captcha },
      );
      try {
        const ghost = newPlayer().mcid;
        for (let attempt = 0; attempt < 10; attempt += 1) {
          expectError(await signIn(direct, ghost, 'wrong-password', clientAddress()), 401, 'unauthorized');
        }
        expectRateLimited(await signIn(direct, ghost, 'wrong-password', clientAddress()), 10, 15 * 60);
      } finally {
        await direct.stop({ keepDatabase: true, keepCaptcha: true });
      }
      // Behind the trusted proxy the same pattern spreads over ten addresses and is never blocked.
      const ghost = newPlayer().mcid;
      for (let attempt = 0; attempt < 11; attempt += 1) {
        expectError(await signIn(guarded, ghost, 'wrong-password', clientAddress()), 401, 'unauthorized');
      }
    });

    it('takes the address the trusted proxy saw: addresses a client puts in front of it change nothing', async () => {
      // The proxy (127.0.0.1, trusted) appends the address it saw; a client spoofing its own
      // X-Forwarded-For only adds entries to the left of it. With TRUST_PROXY=true each spoofed
      // entry counted as a new client and the limit never bit.
      const ghost = newPlayer().mcid;
      const seen = clientAddress();
      const spoofed = (attempt: number) => ({ headers: { 'x-forwarded-for': `10.9.${attempt}.1, 192.0.2.${attempt}, ${seen}` } });
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expectError(await guarded.post('/club/token', { username: ghost, password: 'wrong-password', recaptcha: 'pass' }, spoofed(attempt)), 401, 'unauthorized');
      }
      expectRateLimited(await guarded.post('/club/token', { username: ghost, password: 'wrong-password', recaptcha: 'pass' }, spoofed(99)), 10, 15 * 60);
    });

    it('with a hop count, trusts exactly that many proxies', async () => {
      const hops = await TestApp.start(
        { RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '1', RECAPTCHA_VERIFY_URL: guarded.app.get(AppConfig).RECAPTCHA_VERIFY_URL },
        { database: guarded.database, captcha: guarded.captcha },
      );
      try {
        const ghost = newPlayer().mcid;
        const seen = clientAddress();
        for (let attempt = 0; attempt < 10; attempt += 1) {
          expectError(await signIn(hops, ghost, 'wrong-password', `203.0.113.${attempt}, ${seen}`), 401, 'unauthorized');
        }
        expectRateLimited(await signIn(hops, ghost, 'wrong-password', `203.0.113.77, ${seen}`), 10, 15 * 60);
      } finally {
        await hops.stop({ keepDatabase: true, keepCaptcha: true });
      }
    });

    it('never blocks with RATE_LIMIT_ENABLED=false', async () => {
      const ghost = newPlayer().mcid;
      const results = await Promise.all(Array.from({ length: 15 }, () => signIn(plain, ghost, 'wrong-password', '203.0.113.9')));
      expect(results.map((result) => result.status)).toEqual(Array(15).fill(401));
    });
  });
});
