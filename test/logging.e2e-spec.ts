import { Logger } from '@nestjs/common';
import { TestApp } from './support/test-app';

/** Database errors in the log carry no bound values (real driver errors, SQLite and MariaDB). */
describe('database errors in the log (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start();
  });

  afterAll(async () => {
    await app.stop();
  });

  async function failingQuery(marker: string): Promise<unknown> {
    const insert = 'INSERT INTO api_keys (name, key_hash, scopes, created_at) VALUES (?, ?, ?, ?)';
    await app.dataSource.query(insert, [`dup-${marker}`, `hash-${marker}`, 'operator', '2026-01-01 00:00:00.000']);
    try {
      await app.dataSource.query(insert, [`dup-${marker}`, `hash-${marker}`, 'operator', '2026-01-01 00:00:00.000']);
    } catch (error) {
      return error;
    }
    throw new Error('the duplicate insert did not fail');
  }

  it('logs code and statement shape, never parameters, inlined SQL or quoted values', async () => {
    const marker = `Secret${Date.now()}`;
    const error = await failingQuery(marker);
    expect(JSON.stringify(Object.entries(error as object))).toContain(marker);
    const before = app.logLines.length;
    new Logger('Probe').error({ msg: 'probe through Nest', err: error });
    app.app.getHttpAdapter().getInstance().log.error({ err: new Error('probe through pino', { cause: error }) }, 'probe');
    // How Nest's own ExceptionHandler logs a failed start: the error object itself.
    new Logger('ExceptionHandler').error(error);
    const written = app.logLines.slice(before);
    expect(written).toHaveLength(3);
    for (const line of written) {
      expect(line).not.toContain(marker);
      const parsed = JSON.parse(line) as { err: { code?: string; cause?: { code?: string } } };
      expect(parsed.err.code ?? parsed.err.cause?.code).toMatch(/^(SQLITE_CONSTRAINT|ER_DUP_ENTRY)/);
    }
  });
});

/**
 * SECURITY.md, Logging: a secret after `;` in a path (a matrix parameter) used to reach the
 * request log as it was. Everything after a `;` in a path segment is redacted, whatever its name;
 * query pairs are split at `;` as well as `&`.
 */
describe('secrets after ; in logged URLs (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start();
  });

  afterAll(async () => {
    await app.stop();
  });

  it.each([
    ['POST', '/club/token;password=Sekret-Matrix-1', '/club/token;[redacted]'],
    ['GET', '/cities/requests;apikey=csk_SekretMatrix2', '/cities/requests;[redacted]'],
    ['GET', '/cities/requests;csk_SekretMatrix3?limit=5', '/cities/requests;[redacted]?limit=5'],
    ['GET', '/club;usertoken=Sekret-Matrix-4/@me', '/club;[redacted]/@me'],
    ['POST', '/club/token%3Bpassword=Sekret-Matrix-5', '/club/token;[redacted]'],
    ['POST', '/club/token%3bPASSWORD=Sekret-Matrix-6', '/club/token;[redacted]'],
    ['GET', '/cities/requests?limit=5;apikey=csk_SekretMatrix7', '/cities/requests?limit=5;apikey=[redacted]'],
  ])('%s %s is logged as %s', async (method, path, logged) => {
    const before = app.logLines.length;
    const secret = /Sekret-?Matrix-?\d/.exec(path)![0];
    const result = await app.request(method, path);
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    // The request line is written when the answer has gone out.
    for (let waited = 0; !app.logLines.slice(before).some((line) => line.includes('"msg":"request"')) && waited < 2000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const lines = app.logLines.slice(before);
    expect(lines.join('\n')).not.toContain(secret);
    const request = lines.map((line) => JSON.parse(line) as { msg?: string; url?: string }).find((line) => line.msg === 'request');
    expect(request?.url).toBe(logged);
  });
});

/**
 * SECURITY.md, Logging: a secret parameter is redacted by its name wherever it stands in a URL -
 * in the query, after a `;`, percent-encoded (names, `=` and separators), in any case, repeated -
 * for every name the API reads a secret under; and secret headers never reach the log.
 */
describe('secret parameters redacted by name in every spelling (e2e)', () => {
  let app: TestApp;
  let marker = 0;

  beforeAll(async () => {
    app = await TestApp.start();
  });

  afterAll(async () => {
    await app.stop();
  });

  /** Sends the request and returns the lines it logged (the request line is written once the answer has gone). */
  async function linesOf(method: string, path: string, headers: Record<string, string> = {}): Promise<string[]> {
    const before = app.logLines.length;
    const result = await app.request(method, path, { headers });
    expect(result.status).toBeLessThan(500);
    for (let waited = 0; !app.logLines.slice(before).some((line) => line.includes('"msg":"request"')) && waited < 2000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return app.logLines.slice(before);
  }

  /** `S` in a spelling becomes a fresh secret each time, so a hit can only come from this request. */
  const spellings: Array<[string, string]> = [
    ['password in the query', 'GET /club/token?username=Notch&password=S&recaptcha=S'],
    ['PASSWORD in capitals', 'GET /club/token?username=Notch&PASSWORD=S'],
    ['pass%77ord percent-encoded', 'GET /club/token?username=Notch&pass%77ord=S'],
    ['an encoded name and =', 'GET /club/token?%70assword%3DS'],
    ['ApiKey in mixed case', 'GET /cities/requests?ApiKey=S'],
    ['apikey after ;', 'GET /cities/requests?limit=5;apikey=S'],
    ['apikey after %3B', 'GET /cities/requests?limit=5%3Bapikey=S'],
    ['apikey after %26', 'GET /cities/requests?limit=5%26apikey=S'],
    ['a repeated token', 'GET /users?token=S&token=S&mcid=Notch'],
    ['newPassword', 'POST /club/password?newPassword=S'],
    ['NEWPASSWORD', 'POST /club/password?NEWPASSWORD=S'],
    ['user_recaptcha', 'GET /users/Notch?user_recaptcha=S'],
    ['USER_RECAPTCHA', 'GET /users/Notch?USER_RECAPTCHA=S'],
    ['recaptcha', 'GET /users/Notch?recaptcha=S'],
    ['usertoken', 'GET /club/@me?usertoken=S'],
    ['userkey and verificationCode', 'POST /club/register?userkey=S&verificationCode=S'],
    ['secret and key', 'GET /webhooks?secret=S&key=S'],
    ['password[] with brackets', 'GET /club/token?password[]=S'],
    ['a matrix parameter', 'POST /club/token;password=S'],
    ['a query written %3F', 'POST /club/token%3Fpassword=S'],
    ['an unknown path', 'GET /no/such/route?Password=S'],
  ];

  it.each(spellings)('%s: %s leaves no secret in the log', async (_label, request) => {
    const [method, template] = request.split(' ');
    const secrets: string[] = [];
    const path = template.replace(/S(?=&|;|%|$)/g, () => {
      marker += 1;
      secrets.push(`Sekret${marker}x${Date.now()}`);
      return secrets[secrets.length - 1];
    });
    expect(secrets.length).toBeGreaterThan(0);
    const lines = await linesOf(method, path);
    const text = lines.join('\n');
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
    }
    const logged = lines.map((line) => JSON.parse(line) as { msg?: string; url?: string }).find((line) => line.msg === 'request');
    expect(logged?.url).toContain('[redacted]');
  });

  it('logs no secret header: X-reCAPTCHA-Token, Authorization, X-API-Key, Cookie', async () => {
    const headers = { 'X-reCAPTCHA-Token': 'SekretCaptchaHeader', Authorization: 'Bearer SekretBearerHeader', 'X-API-Key': 'csk_SekretApiKeyHeader', Cookie: 'session=SekretCookieHeader' };
    for (const path of ['/users/Notch', '/club/@me', '/cities/requests', '/no/such/route']) {
      expect((await linesOf('GET', path, headers)).join('\n')).not.toMatch(/Sekret/);
    }
    // A line that carries a request's headers or body (as a future log call might) is redacted by pino itself.
    const before = app.logLines.length;
    const log = app.app.getHttpAdapter().getInstance().log;
    log.info({ req: { headers: { 'x-recaptcha-token': 'SekretProbe1', authorization: 'SekretProbe2', 'x-api-key': 'SekretProbe3', cookie: 'SekretProbe4' } } }, 'probe');
    log.info({ headers: { 'x-recaptcha-token': 'SekretProbe5' }, body: { newPassword: 'SekretProbe6', user_recaptcha: 'SekretProbe7', password: 'SekretProbe8' } }, 'probe');
    const probes = app.logLines.slice(before);
    expect(probes).toHaveLength(2);
    expect(probes.join('\n')).not.toMatch(/Sekret/);
    expect(probes.join('\n')).toContain('[redacted]');
  });
});
