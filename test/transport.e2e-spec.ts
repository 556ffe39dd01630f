import { expectError, newPlayer, TestApp } from './support/test-app';

describe('transport and envelope (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('wraps success in the base response with code equal to the HTTP status', async () => {
    const result = await app.get('/health');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ status: true, code: 200, version: 'test-build' });
    expect(result.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('serves every route under /v1 too', async () => {
    const result = await app.get('/v1/health/ready');
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: true, code: 200, database: 'up' });
  });

  describe('deeply nested bodies', () => {
    const nest = (levels: number, inner: unknown = 1): unknown => {
      let value = inner;
      for (let level = 1; level <= levels; level += 1) {
        value = level % 2 === 0 ? [value] : { corners: value };
      }
      return value;
    };

    it.each(['/club/token', '/cities/create', '/game-server/logins', '/v1/club/register'])('answers 400 to 2,000 levels on %s, with nothing in the log but the request line', async (path) => {
      const before = app.logLines.length;
      const raw = '['.repeat(2000) + ']'.repeat(2000);
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded', null]) {
        const result = expectError(await app.request('POST', path, { raw, contentType }), 400, 'invalid_request');
        expect(result.body.message).toMatch(/nested deeper than 32/);
      }
      const objects = expectError(await app.request('POST', path, { raw: JSON.stringify(nest(2000)), contentType: 'application/json' }), 400, 'invalid_request');
      expect(objects.body.message).toMatch(/nested deeper than 32/);
      const logged = app.logLines.slice(before).join('\n');
      expect(logged).not.toMatch(/RangeError|stack|request failed/);
    });

    it('counts the top-level value as level 1: 33 levels refused, 32 go on to the ordinary checks', async () => {
      const deep = expectError(await app.post('/cities/create', nest(33)), 400, 'invalid_request');
      expect(deep.body.message).toMatch(/nested deeper than 32/);
      const limit = await app.post('/cities/create', nest(32));
      expect(limit.status).toBe(400);
      expect(limit.body.message).not.toMatch(/nested/);
    });

    it('refuses a too-deep JSON-encoded form field without a 500', async () => {
      const corners = JSON.stringify(nest(2000, [0, 0]));
      const result = await app.request('POST', '/cities/create', { raw: new URLSearchParams({ name: 'x', corners }).toString(), contentType: 'application/x-www-form-urlencoded' });
      expect([400, 401]).toContain(result.status);
    });
  });

  it('answers an unknown path with a 404 envelope', async () => {
    expectError(await app.get('/no/such/path'), 404, 'not_found');
    expectError(await app.get('/v1/no/such/path'), 404, 'not_found');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const result = expectError(await app.request('DELETE', '/club/logout'), 405, 'method_not_allowed');
    expect(result.headers.get('allow')).toBe('POST');
    const both = expectError(await app.request('PUT', '/club/token'), 405, 'method_not_allowed');
    expect(both.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('rejects a body that cannot be parsed with 400', async () => {
    expectError(await app.request('POST', '/club/register', { raw: '{"userkey": ', contentType: 'application/json' }), 400, 'invalid_request');
  });

  it('rejects bodies over 64 KiB with 413 and writes nothing', async () => {
    const result = await app.request('POST', '/club/register', {
      raw: JSON.stringify({ userkey: 'x', password: 'p'.repeat(70 * 1024), recaptcha: 'pass' }),
      contentType: 'application/json',
    });
    expectError(result, 413, 'payload_too_large');
  });

  it('accepts up to 1 MiB on /game-server routes', async () => {
    const player = newPlayer();
    const result = await app.request('POST', '/game-server/userkeys', {
      raw: JSON.stringify({ ...player, padding: 'x'.repeat(200 * 1024) }),
      contentType: 'application/json',
      headers: { 'x-api-key': gameServerKey },
    });
    expect(result.status).toBe(201);
  });

  it('rejects a parameter given twice or in bracket form with 400', async () => {
    const twice = expectError(await app.get('/club/token?username=a&username=b&password=x&recaptcha=pass'), 400, 'invalid_request');
    expect(twice.body.details).toEqual([{ field: 'username', message: expect.any(String), message_ja: expect.any(String) }]);
    expectError(await app.get('/club/token?username[]=a&password=x&recaptcha=pass'), 400, 'invalid_request');
  });

  describe('body formats of the club site', () => {
    async function registerWith(raw: string, contentType: string | null): Promise<number> {
      return (await app.request('POST', '/club/register', { raw, contentType })).status;
    }

    it('accepts JSON, a form body, JSON sent as a form, and JSON with no content type', async () => {
      const cases: Array<[string, (key: string) => string, string | null]> = [
        ['json', (key) => JSON.stringify({ userkey: key, password: 'long-password', recaptcha: 'pass' }), 'application/json'],
        ['form', (key) => new URLSearchParams({ userkey: key, password: 'long-password', recaptcha: 'pass' }).toString(), 'application/x-www-form-urlencoded'],
        ['json-as-form', (key) => JSON.stringify({ userkey: key, password: 'long-password', recaptcha: 'pass' }), 'application/x-www-form-urlencoded; charset=UTF-8'],
        ['json-no-type', (key) => JSON.stringify({ userkey: key, password: 'long-password', recaptcha: 'pass' }), null],
      ];
      for (const [label, body, contentType] of cases) {
        const player = newPlayer();
        const key = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
        expect({ label, status: await registerWith(body(key), contentType) }).toEqual({ label, status: 201 });
      }
    });

    it('lets the body win over the query string for POST', async () => {
      const player = newPlayer();
      const key = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const result = await app.request('POST', `/club/register?userkey=WRONGWRONG&password=short`, {
        body: { userkey: key, password: 'long-password', recaptcha: 'pass' },
      });
      expect(result.status).toBe(201);
    });

    it('reads POST parameters from the query string when the body lacks them', async () => {
      const player = newPlayer();
      const key = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const result = await app.request('POST', `/club/register?recaptcha=pass`, { body: { userkey: key, password: 'long-password' } });
      expect(result.status).toBe(201);
    });
  });

  it('reports validation errors with one detail per offending parameter', async () => {
    const result = expectError(await app.post('/club/register', { userkey: 'abc', password: 'short', recaptcha: 5 }), 400, 'invalid_request');
    const fields = (result.body.details as Array<{ field: string }>).map((detail) => detail.field).sort();
    expect(fields).toEqual(['password', 'recaptcha']);
  });

  it('echoes a request id header', async () => {
    const result = await app.request('GET', '/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(result.headers.get('x-request-id')).toBe('abc-123');
    const longest = 'A1._:-'.repeat(10) + 'zz:9';
    expect((await app.request('GET', '/health', { headers: { 'x-request-id': longest } })).headers.get('x-request-id')).toBe(longest);
  });

  it.each([
    ['too long', 'a'.repeat(65)],
    ['spaces', 'abc def'],
    ['markup', '<script>'],
    ['a log-line forgery', 'x","level":60,"msg":"forged'],
  ])('replaces an unsafe request id (%s) with a new one', async (_case, id) => {
    const before = app.logLines.length;
    const result = await app.request('GET', '/health', { headers: { 'x-request-id': id } });
    expect(result.status).toBe(200);
    const issued = result.headers.get('x-request-id') ?? '';
    expect(issued).toMatch(/^[0-9a-f-]{36}$/);
    expect(app.logLines.slice(before).join('\n')).not.toContain(id);
  });

  it('redacts secrets from logged URLs even when the parameter name is percent-encoded', async () => {
    const before = app.logLines.length;
    await app.request('GET', '/club/token?username=x&pass%77ord=Sekret-Value-1&%75sertoken=Sekret-Value-2&recaptcha=pass');
    const logged = app.logLines.slice(before).join('\n');
    expect(logged).toContain('pass%77ord=[redacted]');
    expect(logged).not.toMatch(/Sekret-Value/);
  });

  it('publishes the OpenAPI document covering the club endpoints', async () => {
    const result = await app.get<{ paths: Record<string, unknown> }>('/docs/openapi.json');
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.paths)).toEqual(
      expect.arrayContaining(['/club/@me', '/club/token', '/club/register', '/club/nickname', '/club/logout', '/game-server/userkeys', '/health', '/health/ready']),
    );
    const docs = await fetch(`${app.baseUrl}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });
});
