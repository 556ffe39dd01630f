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
