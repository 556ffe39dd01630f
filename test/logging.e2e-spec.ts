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
