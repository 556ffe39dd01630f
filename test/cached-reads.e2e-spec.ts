import { AuthGuard } from '../src/auth/auth.guard';
import { AppConfig } from '../src/config/app-config';
import { RATE_LIMITS } from '../src/security/rate-limits';
import { UsersService } from '../src/users/users.service';
import { FakeBanlist, upstreamPlayer } from './support/fake-banlist';
import { HttpResult, newPlayer, registerClubUser, RequestOptions, TestApp } from './support/test-app';
import { square } from './support/cities';

const ORIGIN = 'https://club.example.org';
/** Differ between any two responses by nature; every other header must be the same. */
const PER_RESPONSE = new Set(['date', 'x-request-id']);

function headersOf(result: HttpResult): Record<string, string> {
  return Object.fromEntries([...result.headers.entries()].filter(([name]) => !PER_RESPONSE.has(name)));
}

/**
 * Each instance's rate-limit window slides in its own tenths of a minute: when it frees a place
 * (RateLimit-Reset, Retry-After) may differ between the two by up to a tenth; all else is equal.
 */
function expectSameHeaders(a: HttpResult, b: HttpResult): void {
  const split = (result: HttpResult) => {
    const { 'retry-after': retryAfter, 'ratelimit-reset': reset, ...rest } = headersOf(result);
    return { rest, seconds: [retryAfter, reset].map((value) => (value === undefined ? undefined : Number(value))) };
  };
  const [left, right] = [split(a), split(b)];
  expect(left.rest).toEqual(right.rest);
  left.seconds.forEach((value, index) => {
    expect(value === undefined).toBe(right.seconds[index] === undefined);
    expect(Math.abs((value ?? 0) - (right.seconds[index] ?? 0))).toBeLessThanOrEqual(RATE_LIMITS.perIp.durationSeconds / 10);
  });
}

let nextAddress = 1;
function clientAddress(): string {
  nextAddress += 1;
  return `203.0.113.${nextAddress}`;
}

/**
 * The hot public reads are answered before Nest's router (docs/design-and-performance.md,
 * Performance). Two instances on one database, one with that fast path and one without, must
 * answer every request alike: status, body bytes and headers (date and request id aside), with
 * the rate limit, CORS, request ids, metrics, log lines and cache invalidation unchanged.
 */
describe('cached public reads before the router (e2e)', () => {
  const upstream = new FakeBanlist();
  /** Answers the cached reads before Nest's router. */
  let fast: TestApp;
  /** The same service with every request through Nest's router. */
  let nest: TestApp;
  let gameServerKey: string;
  let operatorKey: string;
  let guardCalls: jest.SpyInstance;

  beforeAll(async () => {
    const url = await upstream.start();
    const env = { BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: '1000', RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', CORS_ORIGINS: ORIGIN };
    fast = await TestApp.start(env);
    const captchaUrl = fast.app.get(AppConfig).RECAPTCHA_VERIFY_URL;
    nest = await TestApp.start({ ...env, RECAPTCHA_VERIFY_URL: captchaUrl }, { database: fast.database, captcha: fast.captcha }, { cachedReads: false });
    gameServerKey = await fast.createApiKey(['game-server']);
    operatorKey = await fast.createApiKey(['operator'], 'ops');
    guardCalls = jest.spyOn(AuthGuard.prototype, 'canActivate');
  });

  afterAll(async () => {
    guardCalls.mockRestore();
    await nest.stop({ keepDatabase: true, keepCaptcha: true });
    await fast.stop();
    await upstream.stop();
  });

  const login = (uuid: string, mcid: string, at = new Date()) =>
    fast.post('/game-server/logins', { logins: [{ uuid, mcid, loggedInAt: at.toISOString() }] }, { headers: { 'x-api-key': gameServerKey, 'x-forwarded-for': clientAddress() } });

  async function createCity(owner: { uuid: string; mcid: string }): Promise<number> {
    const userkey = await fast.issueUserKey(gameServerKey, owner.uuid, owner.mcid);
    const x = 1_000_000 + Math.floor(Math.random() * 1_000_000) * 20;
    const created = await fast.post<{ cityId: number }>(
      '/cities/create',
      {
        usertoken: userkey,
        cityName: `Fast City ${x}`,
        cityNameKana: `ふぁすと${'あいうえおかきくけこ'[x % 10]}${'あいうえおかきくけこ'[Math.floor(x / 20) % 10]}${'あいうえおかきくけこ'[Math.floor(x / 200) % 10]}`,
        summary: 'fast path test',
        origin: 'fast path test',
        corners: square(x, 0),
        count: 100,
        recaptcha: 'pass',
        force: true,
      },
      { headers: { 'x-api-key': operatorKey, 'x-forwarded-for': clientAddress() } },
    );
    expect(created.status).toBe(201);
    return created.body.cityId;
  }

  /**
   * The same request to both instances (from one fresh address each, so their rate-limit
   * headers match); asserts they answer alike and that the fast instance ran no guard, i.e. did
   * not go through Nest (its answers, errors included, come from before the router).
   */
  async function expectSame(path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const ip = clientAddress();
    const headers = { origin: ORIGIN, 'x-forwarded-for': ip, ...options.headers };
    guardCalls.mockClear();
    const viaFast = await fast.request('GET', path, { ...options, headers });
    const guardedOnFast = guardCalls.mock.calls.length;
    const viaNest = await nest.request('GET', path, { ...options, headers });
    expect(guardCalls.mock.calls.length - guardedOnFast).toBe(1);
    expect(guardedOnFast).toBe(0);
    expect({ status: viaFast.status, text: viaFast.text }).toEqual({ status: viaNest.status, text: viaNest.text });
    expectSameHeaders(viaFast, viaNest);
    return viaFast;
  }

  it('answers cities, users and ban-list reads with the same bytes and headers as Nest', async () => {
    const owner = newPlayer();
    expect((await login(owner.uuid, owner.mcid)).status).toBe(200);
    const id = await createCity(owner);
    upstream.script(owner.uuid, { status: 200, body: upstreamPlayer(owner.uuid, owner.mcid, 5, [{ banId: 9300 }]) });
    expect((await fast.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': operatorKey, 'x-forwarded-for': clientAddress() } })).status).toBe(200);

    for (const path of [`/cities/${id}`, `/v1/cities/${id}`, `/cities/${owner.uuid}`, `/users/${owner.uuid}`, `/users/${owner.mcid}`, `/users/banlist/${owner.uuid}`, `/v1/users/banlist/${owner.uuid}`]) {
      const result = await expectSame(path);
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ status: true, code: 200, version: 'test-build', data: expect.any(Object) });
      expect(result.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(result.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
      expect(result.headers.get('cache-control')).toBe('no-store');
      expect(result.headers.get('ratelimit-remaining')).toBe(String(RATE_LIMITS.perIp.points - 1));
    }
    // A query value wins over the path, as the handler's @Input() merges them.
    const other = newPlayer();
    expect((await login(other.uuid, other.mcid)).status).toBe(200);
    const byQuery = await expectSame(`/users/${owner.mcid}`, { query: { uuid: other.uuid } });
    expect((byQuery.body.data as { uuid: string }).uuid).toBe(other.uuid);
    // Conditional requests: these reads have no ETag, so If-None-Match changes nothing.
    expect((await expectSame(`/cities/${id}`, { headers: { 'if-none-match': '"x"' } })).status).toBe(200);
  });

  it("answers errors itself with Nest's 400 and 404 bodies and headers, running each read once", async () => {
    const nobody = newPlayer();
    for (const [path, status] of [
      ['/cities/0', 400],
      ['/cities/not-an-id', 400],
      ['/cities/999999999', 404],
      [`/users/${nobody.uuid}`, 404],
      [`/users/${nobody.mcid}`, 404],
      [`/users/${'x'.repeat(65)}`, 400],
      ['/users/banlist/not-a-uuid', 400],
      [`/users/banlist/${nobody.uuid}`, 404],
    ] as const) {
      expect((await expectSame(path)).status).toBe(status);
    }
    expect((await expectSame(`/cities/1`, { query: { id: 'x' } })).status).toBe(400);
    // A failing read is not handed on to run a second time (under a stalled database that would double the wait).
    const finds = jest.spyOn(fast.app.get(UsersService), 'find');
    try {
      expect((await fast.get(`/users/${newPlayer().uuid}`)).status).toBe(404);
      expect(finds).toHaveBeenCalledTimes(1);
    } finally {
      finds.mockRestore();
    }
  });

  it("keeps a caller's request id and HEAD requests as they are", async () => {
    const owner = newPlayer();
    expect((await login(owner.uuid, owner.mcid)).status).toBe(200);
    const viaFast = await fast.get(`/users/${owner.uuid}`, { headers: { 'x-request-id': 'caller-id.1' } });
    const viaNest = await nest.get(`/users/${owner.uuid}`, { headers: { 'x-request-id': 'caller-id.1' } });
    expect([viaFast.headers.get('x-request-id'), viaNest.headers.get('x-request-id')]).toEqual(['caller-id.1', 'caller-id.1']);
    const ip = clientAddress();
    const headFast = await fast.request('HEAD', `/users/${owner.uuid}`, { headers: { 'x-forwarded-for': ip } });
    const headNest = await nest.request('HEAD', `/users/${owner.uuid}`, { headers: { 'x-forwarded-for': ip } });
    expect(headFast.status).toBe(200);
    expectSameHeaders(headFast, headNest);
  });

  it('counts the reads in the per-address limit and answers the 429 alike', async () => {
    const owner = newPlayer();
    expect((await login(owner.uuid, owner.mcid)).status).toBe(200);
    const path = `/users/${owner.uuid}`;
    const ip = clientAddress();
    // Both instances in step, so that their windows fill at the same moments.
    for (let sent = 0; sent < RATE_LIMITS.perIp.points; sent += 25) {
      const results = await Promise.all([fast, nest].flatMap((app) => Array.from({ length: 25 }, () => app.get(path, { headers: { 'x-forwarded-for': ip } }))));
      expect(results.filter((result) => result.status !== 200)).toEqual([]);
    }
    const [limitedFast, limitedNest] = await Promise.all([fast, nest].map((app) => app.get(path, { headers: { 'x-forwarded-for': ip, origin: ORIGIN } })));
    expect(limitedFast.status).toBe(429);
    expectSameHeaders(limitedFast, limitedNest);
    expect(limitedFast.headers.get('ratelimit-reset')).toBe(limitedFast.headers.get('retry-after'));
    // The message names the same seconds as Retry-After.
    const withoutSeconds = (result: HttpResult) => result.text.replace(/\d+ (s|秒)/g, 'N $1');
    expect(withoutSeconds(limitedFast)).toBe(withoutSeconds(limitedNest));
    expect(limitedFast.body).toMatchObject({ status: false, code: 429, error: 'rate_limited' });
  });

  it('shows every write on the next read, as Nest does', async () => {
    const owner = newPlayer();
    expect((await login(owner.uuid, owner.mcid)).status).toBe(200);
    const id = await createCity(owner);
    await expectSame(`/cities/${id}`);
    await expectSame(`/users/${owner.mcid}`);

    const admin = await registerClubUser(nest, gameServerKey, { admin: true });
    const edited = await nest.request('PATCH', `/cities/edit/${id}`, { body: { usertoken: admin.usertoken, recaptcha: 'pass', cityName: `Renamed ${id}` }, headers: { 'x-forwarded-for': clientAddress() } });
    expect(edited.status).toBe(200);
    const afterEdit = await expectSame(`/cities/${id}`);
    expect((afterEdit.body.data as { name: string }).name).toBe(`Renamed ${id}`);

    const renamed = `${owner.mcid.slice(0, 10)}_fr`;
    expect((await login(owner.uuid, renamed, new Date(Date.now() + 1000))).status).toBe(200);
    expect(((await expectSame(`/users/${owner.uuid}`)).body.data as { mcid: string }).mcid).toBe(renamed);
    expect((await expectSame(`/users/${owner.mcid}`)).status).toBe(404);

    upstream.script(owner.uuid, { status: 200, body: upstreamPlayer(owner.uuid, renamed, 2, [{ banId: 9400 }, { banId: 9401 }]) });
    expect((await nest.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': operatorKey, 'x-forwarded-for': clientAddress() } })).status).toBe(200);
    expect((await expectSame(`/users/banlist/${owner.uuid}`)).body.data).toMatchObject({ reputation: 2 });

    const deleted = await nest.request('DELETE', `/cities/${id}`, { headers: { 'x-api-key': operatorKey, 'x-forwarded-for': clientAddress() } });
    expect(deleted.status).toBe(200);
    expect((await expectSame(`/cities/${id}`)).status).toBe(404);
  });

  it('counts the reads in the request metrics by route and logs them as Nest does', async () => {
    const owner = newPlayer();
    expect((await login(owner.uuid, owner.mcid)).status).toBe(200);
    const counted = async (app: TestApp): Promise<number> => {
      // From loopback itself: /metrics answers private addresses only.
      const metrics = await app.get('/metrics');
      expect(metrics.status).toBe(200);
      const match = /^http_requests_total\{route="\/users\/:identifier",method="GET",status="200"\} (\d+)$/m.exec(metrics.text);
      return Number(match?.[1] ?? 0);
    };
    const before = await counted(fast);
    const path = `/users/${owner.uuid}?marker=${owner.mcid}`;
    await expectSame(path);
    expect(await counted(fast)).toBe(before + 1);
    const lineOf = (app: TestApp) => {
      const line = app.logLines.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.msg === 'request' && String(entry.url).includes(owner.mcid));
      // The time, request id, duration and process differ by nature.
      return Object.fromEntries(Object.entries(line ?? {}).filter(([name]) => !['time', 'reqId', 'ms', 'pid'].includes(name)));
    };
    expect(lineOf(fast)).toMatchObject({ msg: 'request', method: 'GET', statusCode: 200 });
    expect(lineOf(fast)).toEqual(lineOf(nest));
  });
});
