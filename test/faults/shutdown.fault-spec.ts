import { existsSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClubAccount } from '../../src/club/club-account.entity';
import { newPlayer, TestApp } from '../support/test-app';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { BuiltServer, ServerProcess } from '../support/server-process';

/**
 * A siteverify stand-in: `slow` answers after SLOW_MS (keeping a request in flight), anything
 * else at once; always success.
 */
const SLOW_MS = 1500;
function startCaptcha(onSlow: () => void): Promise<{ server: Server; url: string }> {
  const server = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const slow = new URLSearchParams(body).get('response') === 'slow';
      if (slow) {
        onSlow();
      }
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'), slow ? SLOW_MS : 0);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify` })));
}

// The fault suite runs once, whatever TEST_DATABASE says: both databases here.
describe.each(['sqlite', 'mysql'] as const)('graceful shutdown of the real server process on %s', (kind) => {
  let build: BuiltServer;
  let database: TestDatabase;
  let gameServerKey: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    build = BuiltServer.build();
    database = await createTestDatabase(kind);
    const setup = await TestApp.start({}, { database });
    gameServerKey = await setup.createApiKey(['game-server']);
    await setup.stop({ keepDatabase: true });
  });

  afterAll(async () => {
    await server?.stop();
    build.remove();
    await database?.drop();
  });

  it('drains an in-flight request on SIGTERM, closes the database and exits 0', async () => {
    let slowArrived: () => void = () => undefined;
    const inCaptcha = new Promise<void>((resolve) => (slowArrived = resolve));
    const captcha = await startCaptcha(() => slowArrived());
    server = await build.start({
      DATABASE_URL: database.url,
      RECAPTCHA_SECRET: 'shutdown-test-secret',
      RECAPTCHA_VERIFY_URL: captcha.url,
      APP_VERSION: 'shutdown-test',
      LOG_LEVEL: 'info',
    });
    const { base, child, output, exited } = server;

    try {
      await server.ready(20_000);
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const player = newPlayer();
      const issued = (await (await post('/game-server/userkeys', player, { 'x-api-key': gameServerKey })).json()) as { userkey: string };
      const registered = (await (await post('/club/register', { userkey: issued.userkey, password: 'shutdown-pass', recaptcha: 'pass' })).json()) as { usertoken: string };
      expect(registered.usertoken).toMatch(/^[A-Za-z0-9]{32}$/);

      // A write that is still waiting for its CAPTCHA answer when SIGTERM arrives.
      const inFlight = post('/club/nickname', { nickname: 'Drained', recaptcha: 'slow' }, { authorization: `Bearer ${registered.usertoken}` });
      await inCaptcha;
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      // No new work is taken once draining started.
      const late = await fetch(`${base}/health`, { headers: { connection: 'close' } }).then((response) => response.status, () => 'refused');
      expect([503, 'refused']).toContain(late);

      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: true, code: 200, nickname: 'Drained' });
      expect(await exited).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(SLOW_MS + 5000);
      const log = output.join('');
      expect(log).toContain('SIGTERM received: draining in-flight requests');
      expect(log).toContain('Shutdown complete');
      expect(log).not.toMatch(/"level":50/);
      if (kind === 'sqlite') {
        // Closed cleanly: SQLite checkpoints and removes the write-ahead log only on a proper close.
        expect(existsSync(`${database.url.slice('sqlite:'.length)}-wal`)).toBe(false);
      }
    } finally {
      await new Promise<void>((resolve) => captcha.server.close(() => resolve()));
    }

    // The drained write is in the database.
    const check = await TestApp.start({}, { database });
    try {
      const account = await check.dataSource.getRepository(ClubAccount).findOneByOrFail({ nickname: 'Drained' });
      expect(account.nickname).toBe('Drained');
    } finally {
      await check.stop({ keepDatabase: true });
    }
  });
});
