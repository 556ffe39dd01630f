import { request as httpRequest } from 'node:http';
import { messages } from '../src/common/errors/messages';
import { expectError, HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** The error envelope with `message_ja` (docs/api.md, Requests and responses) on the body and on every detail. */
function expectJapanese(result: HttpResult, status: number, error: string): Record<string, unknown> {
  expectError(result, status, error);
  const body = result.body as { message_ja?: unknown; details?: Array<{ message_ja?: unknown }> };
  expect(body.message_ja).toEqual(expect.stringMatching(JAPANESE));
  for (const entry of body.details ?? []) {
    expect(entry.message_ja).toEqual(expect.stringMatching(JAPANESE));
  }
  return result.body;
}

/** A raw HTTP/1.1 exchange, for what fetch refuses to send (oversized headers). */
function rawRequest(port: number, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/health', method: 'GET', headers, maxHeaderSize: 1 << 20 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every error body, of every code, carries message_ja; so does every details entry. */
describe('Japanese messages (e2e)', () => {
  let app: TestApp;
  let limited: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start();
    limited = await TestApp.start({ RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1' }, { database: app.database });
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await limited.stop({ keepDatabase: true });
    await app.stop();
  });

  it('400 validation: the message and each detail in Japanese, written for players', async () => {
    const body = expectJapanese(await app.post('/club/register', { userkey: 'ABCDEFGHIJ', password: 'short' }), 400, 'invalid_request');
    expect(body).toMatchObject({
      message_ja: '入力内容を確認してください（パスワード、CAPTCHA）。',
      details: [
        { field: 'password', message: 'password must be 8 to 128 characters', message_ja: 'パスワードは8〜128文字で入力してください。' },
        { field: 'recaptcha', message: 'recaptcha is required', message_ja: 'CAPTCHAを入力してください。' },
      ],
    });
  });

  it('400 from a domain rule, with its detail, also under /v1 and with the club site form body', async () => {
    const body = expectJapanese(
      await app.request('POST', '/v1/club/nickname', {
        raw: JSON.stringify({ nickname: '   ', recaptcha: 'pass', usertoken: (await registerClubUser(app, gameServerKey)).usertoken }),
        contentType: 'application/x-www-form-urlencoded',
      }),
      400,
      'invalid_request',
    );
    expect(body.details).toEqual([{ field: 'nickname', message: 'nickname must not be empty', message_ja: messages['club.nickname.empty'].ja }]);
  });

  it('400 for a body that cannot be parsed, and captcha_failed', async () => {
    expectJapanese(await app.request('POST', '/club/token', { raw: '{"username":', contentType: 'application/json' }), 400, 'invalid_request');
    const user = await registerClubUser(app, gameServerKey);
    const captcha = expectJapanese(await app.post('/club/token', { username: user.mcid, password: 'club-password-1', recaptcha: 'fail' }), 400, 'captcha_failed');
    expect(captcha.message_ja).toBe(messages['captcha.failed'].ja);
  });

  it('401, 403 and 404', async () => {
    expect(expectJapanese(await app.get('/club/@me'), 401, 'unauthorized').message_ja).toBe(messages['auth.tokenRequired'].ja);
    expectJapanese(await app.get('/club/@me', { query: { usertoken: 'x'.repeat(32) } }), 401, 'unauthorized');
    expectJapanese(await app.get('/cities/requests', { headers: { 'x-api-key': gameServerKey } }), 403, 'forbidden');
    expect(expectJapanese(await app.get('/cities/987654'), 404, 'not_found').message_ja).toBe(messages['cities.noMatch'].ja);
    expectJapanese(await app.get('/no/such/path'), 404, 'not_found');
  });

  it('405 with Allow', async () => {
    const result = await app.request('PUT', '/club/register');
    expectJapanese(result, 405, 'method_not_allowed');
    expect(result.headers.get('allow')).toBe('POST');
  });

  it('409', async () => {
    const player = newPlayer();
    const first = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    expect((await app.post('/club/register', { userkey: first, password: 'club-password-1', recaptcha: 'pass' })).status).toBe(201);
    const second = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const body = expectJapanese(await app.post('/club/register', { userkey: second, password: 'club-password-1', recaptcha: 'pass' }), 409, 'conflict');
    expect(body.message_ja).toBe(messages['club.accountExists'].ja);
  });

  it('413', async () => {
    const body = expectJapanese(await app.post('/club/token', { username: 'Notch', password: 'x'.repeat(70 * 1024), recaptcha: 'pass' }), 413, 'payload_too_large');
    expect(body.message_ja).toBe(messages['http.bodyTooLarge'].ja);
  });

  it('429 after repeated failed sign-ins, with the wait in both languages', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.77' };
    const ghost = newPlayer().mcid;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expectJapanese(await limited.post('/club/token', { username: ghost, password: 'wrong-password', recaptcha: 'pass' }, { headers }), 401, 'unauthorized');
    }
    const body = expectJapanese(await limited.post('/club/token', { username: ghost, password: 'wrong-password', recaptcha: 'pass' }, { headers }), 429, 'rate_limited');
    const seconds = /Try again in (\d+) s\./.exec(String(body.message))?.[1];
    expect(body.message_ja).toContain(`${seconds} 秒後`);
  });

  it('503 for a feature switched off, without Retry-After (coming back soon would not help)', async () => {
    const operatorKey = await app.createApiKey(['operator']);
    const response = await app.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': operatorKey } });
    const body = expectJapanese(response, 503, 'service_unavailable');
    expect(body.message_ja).toBe(messages['banlist.syncOff'].ja);
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it('431 for oversized headers: invalid_request, with message_ja', async () => {
    const port = Number(new URL(app.baseUrl).port);
    const result = await rawRequest(port, { 'x-padding': 'a'.repeat(64 * 1024) });
    expect(result.status).toBe(431);
    expect(result.body).toMatchObject({ status: false, code: 431, error: 'invalid_request', message_ja: messages['http.headersTooLarge'].ja });
  });
});
