import { ApiKeysService } from '../src/api-keys/api-keys.service';
import { ClubAccountsService } from '../src/club/club-accounts.service';
import { ConsoleSessionsRepository } from '../src/console-sessions/console-sessions.repository';
import { ConsoleSessionsService } from '../src/console-sessions/console-sessions.service';
import { loadConfig } from '../src/config/app-config';
import { expectError, HttpResult, registerClubUser, TestApp } from './support/test-app';

/**
 * Console sessions (docs/console-and-maps.md, Signing in to the console): the key or the admin's
 * token is exchanged for a hashed HttpOnly cookie, the guard accepts the cookie on the console's
 * routes only, state-changing calls need the CSRF token, and the session ends on sign-out, with
 * its credential, and after its idle and absolute limits.
 */
interface Signed {
  cookie: string;
  setCookie: string;
  csrf: string;
  body: Record<string, unknown>;
}

function sessionOf(result: HttpResult): Signed {
  expect(result.status).toBe(201);
  const setCookie = result.headers.getSetCookie().find((line) => /console_session=/.test(line));
  if (!setCookie) {
    throw new Error(`no session cookie: ${result.text}`);
  }
  const data = result.body.data as Record<string, unknown>;
  return { cookie: setCookie.split(';')[0], setCookie, csrf: String(data.csrfToken), body: data };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('console sessions (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    // A trusted proxy on loopback, so X-Forwarded-Proto: https stands for an HTTPS request.
    app = await TestApp.start({ TRUST_PROXY: '127.0.0.1' });
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  const withKey = (key: string): Promise<HttpResult> => app.post('/console-session', undefined, { headers: { 'x-api-key': key } });
  const withToken = (token: string): Promise<HttpResult> => app.post('/console-session', undefined, { headers: { authorization: `Bearer ${token}` } });
  const requests = (cookie: string): Promise<HttpResult> => app.get('/cities/requests', { headers: { cookie } });

  describe('sign-in', () => {
    it('exchanges an operator key for an HttpOnly, SameSite=Strict cookie stored only as a hash', async () => {
      const key = await app.createApiKey(['operator'], 'console-ops');
      const signed = sessionOf(await withKey(key));
      expect(signed.setCookie).toMatch(/^console_session=ccs_[A-Za-z0-9]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/);
      expect(signed.setCookie).not.toContain('Secure');
      expect(signed.body).toEqual({ kind: 'operator', name: 'console-ops', uuid: null, csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/), expiresAt: expect.any(String), idleTimeoutSeconds: 1800 });
      expect(JSON.stringify(signed.body)).not.toContain(key);
      const secret = signed.cookie.split('=')[1];
      const rows = await app.dataSource.query<Array<Record<string, unknown>>>('SELECT * FROM console_sessions');
      expect(JSON.stringify(rows)).not.toContain(secret);
      expect(JSON.stringify(rows)).not.toContain(signed.csrf);
      expect((await requests(signed.cookie)).status).toBe(200);
      // /v1 too, and GET /console-session gives a reloaded page its CSRF token again.
      expect((await app.get('/v1/cities/requests', { headers: { cookie: signed.cookie } })).status).toBe(200);
      const current = await app.get('/console-session', { headers: { cookie: signed.cookie } });
      expect(current.status).toBe(200);
      expect(current.body.data).toMatchObject({ kind: 'operator', csrfToken: signed.csrf });
      expect(app.logLines.join('\n')).not.toContain(secret);
    });

    it('sets __Host-console_session with Secure when the request came over HTTPS through the trusted proxy', async () => {
      const key = await app.createApiKey(['operator']);
      const result = await app.post('/console-session', undefined, { headers: { 'x-api-key': key, 'x-forwarded-proto': 'https' } });
      const signed = sessionOf(result);
      expect(signed.setCookie).toMatch(/^__Host-console_session=ccs_\w+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/);
      expect((await requests(signed.cookie)).status).toBe(200);
    });

    it("exchanges a club admin's token, and the session ends when the token would", async () => {
      const admin = await registerClubUser(app, gameServerKey, { admin: true });
      const signed = sessionOf(await withToken(admin.usertoken));
      expect(signed.body).toMatchObject({ kind: 'club-admin', name: admin.mcid, uuid: admin.uuid });
      expect((await requests(signed.cookie)).status).toBe(200);
    });

    it('refuses a wrong key, a game-server key, a non-admin, and a cookie alone', async () => {
      expectError(await withKey('csk_wrongwrongwrongwrongwrongwrongwrongwrong'), 401, 'unauthorized');
      expectError(await withKey(gameServerKey), 403, 'forbidden');
      const player = await registerClubUser(app, gameServerKey);
      expectError(await withToken(player.usertoken), 403, 'forbidden');
      expectError(await app.post('/console-session'), 401, 'unauthorized');
      const signed = sessionOf(await withKey(await app.createApiKey(['operator'])));
      expectError(await app.post('/console-session', undefined, { headers: { cookie: signed.cookie, 'x-csrf-token': signed.csrf } }), 401, 'unauthorized');
      // GET /console-session tells a page that is not signed in so without an error.
      expect((await app.get('/console-session')).body).toMatchObject({ data: null });
      const forged = await app.get('/console-session', { headers: { cookie: 'console_session=ccs_forged' } });
      expect(forged.body).toMatchObject({ data: null });
      expect(forged.headers.getSetCookie().join()).toContain('Max-Age=0');
    });
  });

  describe('where the cookie counts', () => {
    it("is accepted on the console's routes only: other routes still want their key or token", async () => {
      const admin = await registerClubUser(app, gameServerKey, { admin: true });
      const signed = sessionOf(await withToken(admin.usertoken));
      expectError(await app.get('/club/@me', { headers: { cookie: signed.cookie } }), 401, 'unauthorized');
      expectError(await app.get('/events', { headers: { cookie: signed.cookie } }), 401, 'unauthorized');
      // An admin's session has no API key: the ban-list sync stays the operator's.
      expectError(await app.get('/users/banlist/sync/status', { headers: { cookie: signed.cookie } }), 403, 'forbidden');
      const operator = sessionOf(await withKey(await app.createApiKey(['operator'])));
      expect((await app.get('/users/banlist/sync/status', { headers: { cookie: operator.cookie } })).status).toBe(200);
    });

    it('lets an explicit key or token win over a cookie', async () => {
      const signed = sessionOf(await withKey(await app.createApiKey(['operator'])));
      expectError(await app.get('/cities/requests', { headers: { cookie: signed.cookie, 'x-api-key': gameServerKey } }), 403, 'forbidden');
    });
  });

  describe('CSRF', () => {
    it('refuses a state-changing call without the token, with a wrong one, or from another origin (403)', async () => {
      const signed = sessionOf(await withKey(await app.createApiKey(['operator'])));
      const reject = (headers: Record<string, string>): Promise<HttpResult> => app.post('/cities/reject/region/987654', {}, { headers: { cookie: signed.cookie, ...headers } });
      expectError(await reject({}), 403, 'forbidden');
      expectError(await reject({ 'x-csrf-token': signed.csrf.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }), 403, 'forbidden');
      expectError(await reject({ 'x-csrf-token': 'short' }), 403, 'forbidden');
      expectError(await reject({ 'x-csrf-token': signed.csrf, origin: 'http://evil.example' }), 403, 'forbidden');
      expectError(await app.request('DELETE', '/cities/1', { headers: { cookie: signed.cookie } }), 403, 'forbidden');
      expectError(await app.post('/users/banlist/sync', undefined, { headers: { cookie: signed.cookie } }), 403, 'forbidden');
      expectError(await app.request('DELETE', '/console-session', { headers: { cookie: signed.cookie } }), 403, 'forbidden');
      // With the token (and the page's own origin) the call gets past authentication: no such request.
      expectError(await reject({ 'x-csrf-token': signed.csrf, origin: app.baseUrl }), 404, 'not_found');
      expect((await requests(signed.cookie)).status).toBe(200);
    });
  });

  describe('how a session ends', () => {
    const signOut = (signed: Signed): Promise<HttpResult> => app.request('DELETE', '/console-session', { headers: { cookie: signed.cookie, 'x-csrf-token': signed.csrf } });

    it('sign-out ends it on the server: the old cookie is refused and cleared', async () => {
      const signed = sessionOf(await withKey(await app.createApiKey(['operator'])));
      const out = await signOut(signed);
      expect(out.status).toBe(200);
      expect(out.headers.getSetCookie().join()).toMatch(/^console_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict$/);
      expectError(await requests(signed.cookie), 401, 'unauthorized');
      expect((await app.get('/console-session', { headers: { cookie: signed.cookie } })).body).toMatchObject({ data: null });
      expectError(await signOut(signed), 401, 'unauthorized');
    });

    it("an admin's sign-out logs out the token it was made from", async () => {
      const admin = await registerClubUser(app, gameServerKey, { admin: true });
      const signed = sessionOf(await withToken(admin.usertoken));
      expect((await signOut(signed)).status).toBe(200);
      expectError(await app.get('/club/@me', { headers: { authorization: `Bearer ${admin.usertoken}` } }), 401, 'unauthorized');
    });

    it('ends when its API key is revoked', async () => {
      const name = `revoked-${Date.now()}`;
      const signed = sessionOf(await withKey(await app.createApiKey(['operator'], name)));
      expect((await requests(signed.cookie)).status).toBe(200);
      await app.app.get(ApiKeysService).revoke(name);
      expectError(await requests(signed.cookie), 401, 'unauthorized');
      // The ended session's row is gone, not just refused.
      const orphans = await app.dataSource.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM console_sessions WHERE api_key_id IS NOT NULL AND api_key_id NOT IN (SELECT id FROM api_keys)');
      expect(Number(orphans[0].n)).toBe(0);
    });

    it('ends when the admin loses the admin group', async () => {
      const admin = await registerClubUser(app, gameServerKey, { admin: true });
      const signed = sessionOf(await withToken(admin.usertoken));
      await app.app.get(ClubAccountsService).setGroup(admin.uuid, 'default');
      expectError(await requests(signed.cookie), 401, 'unauthorized');
      // Back in the group, the ended session stays ended.
      await app.app.get(ClubAccountsService).setGroup(admin.uuid, 'admin');
      expectError(await requests(signed.cookie), 401, 'unauthorized');
    });

    it('ends when the admin deletes their account', async () => {
      const admin = await registerClubUser(app, gameServerKey, { admin: true, password: 'admin-password-1' });
      const signed = sessionOf(await withToken(admin.usertoken));
      const deleted = await app.post('/club/@me/delete', { password: 'admin-password-1', recaptcha: 'pass' }, { headers: { authorization: `Bearer ${admin.usertoken}` } });
      expect(deleted.status).toBe(200);
      expectError(await requests(signed.cookie), 401, 'unauthorized');
    });

    it("ends when the admin's token is superseded by a new sign-in, or logged out", async () => {
      const admin = await registerClubUser(app, gameServerKey, { admin: true, password: 'admin-password-2' });
      const first = sessionOf(await withToken(admin.usertoken));
      const again = await app.post<{ usertoken: string }>('/club/token', { username: admin.mcid, password: 'admin-password-2', recaptcha: 'pass' });
      expect(again.status).toBe(200);
      expectError(await requests(first.cookie), 401, 'unauthorized');
      const second = sessionOf(await withToken(again.body.usertoken));
      expect((await app.post('/club/logout', undefined, { headers: { authorization: `Bearer ${again.body.usertoken}` } })).status).toBe(200);
      expectError(await requests(second.cookie), 401, 'unauthorized');
    });
  });
});

describe('console session limits (e2e)', () => {
  let app: TestApp;
  let operatorKey: string;

  beforeAll(async () => {
    app = await TestApp.start({ CONSOLE_SESSION_IDLE_SECONDS: '3', CONSOLE_SESSION_MAX_SECONDS: '6', CLUB_TOKEN_TTL_SECONDS: '4' });
    operatorKey = await app.createApiKey(['operator']);
  });

  afterAll(async () => {
    await app.stop();
  });

  const signIn = async (): Promise<Signed> => sessionOf(await app.post('/console-session', undefined, { headers: { 'x-api-key': operatorKey } }));
  const requests = (cookie: string): Promise<HttpResult> => app.get('/cities/requests', { headers: { cookie } });

  it('refuses a configuration whose idle limit is above the maximum', () => {
    expect(() => loadConfig({ CONSOLE_SESSION_IDLE_SECONDS: '100', CONSOLE_SESSION_MAX_SECONDS: '50' })).toThrow(/CONSOLE_SESSION_IDLE_SECONDS/);
    expect(() => loadConfig({ CONSOLE_SESSION_IDLE_SECONDS: '0' })).toThrow(/CONSOLE_SESSION_IDLE_SECONDS/);
    expect(() => loadConfig({ CONSOLE_SESSION_MAX_SECONDS: 'soon' })).toThrow(/CONSOLE_SESSION_MAX_SECONDS/);
  });

  it('ends after the idle limit without a request', async () => {
    const signed = await signIn();
    expect(signed.body.idleTimeoutSeconds).toBe(3);
    expect(signed.setCookie).toContain('Max-Age=6');
    await sleep(3500);
    expectError(await requests(signed.cookie), 401, 'unauthorized');
  });

  it('stays alive while used, and ends at the absolute limit anyway', async () => {
    const signed = await signIn();
    const started = Date.now();
    while (Date.now() - started < 4500) {
      await sleep(1200);
      expect((await requests(signed.cookie)).status).toBe(200);
    }
    await sleep(Math.max(0, 6300 - (Date.now() - started)));
    expectError(await requests(signed.cookie), 401, 'unauthorized');
  });

  it("ends an admin's session when the admin's token expires", async () => {
    const gameServerKey = await app.createApiKey(['game-server']);
    const admin = await registerClubUser(app, gameServerKey, { admin: true });
    const signed = sessionOf(await app.post('/console-session', undefined, { headers: { authorization: `Bearer ${admin.usertoken}` } }));
    expect(new Date(String(signed.body.expiresAt)).getTime()).toBeLessThanOrEqual(Date.now() + 4000);
    const started = Date.now();
    while (Date.now() - started < 2500) {
      await sleep(1000);
      expect((await requests(signed.cookie)).status).toBe(200);
    }
    await sleep(Math.max(0, 4300 - (Date.now() - started)));
    expectError(await requests(signed.cookie), 401, 'unauthorized');
  });

  it('the cleanup deletes expired and idle sessions and keeps live ones', async () => {
    const service = app.app.get(ConsoleSessionsService);
    const repository = app.app.get(ConsoleSessionsRepository);
    await service.purge(new Date(Date.now() + 3_600_000));
    expect(await repository.count()).toBe(0);
    const live = await signIn();
    await signIn();
    expect(await repository.count()).toBe(2);
    expect(await service.purge()).toBe(0);
    // Four seconds on, both are idle past 3 s: one purge removes them, and the cookie is refused.
    expect(await service.purge(new Date(Date.now() + 4000))).toBe(2);
    expect(await repository.count()).toBe(0);
    expectError(await requests(live.cookie), 401, 'unauthorized');
  });
});
