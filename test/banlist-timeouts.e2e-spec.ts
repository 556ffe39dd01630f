import { createServer, type AddressInfo } from 'node:net';
import { Player } from '../src/players/player.entity';
import { FakeBanlist, upstreamPlayer } from './support/fake-banlist';
import { newPlayer, TestApp } from './support/test-app';

const TIMEOUT_MS = 2000;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Contract 13.10: a 5xx or a refused connection is retried up to twice with a short backoff; a
 * timeout is not retried within the run, so one hanging upstream player costs at most one
 * BANLIST_TIMEOUT_MS (before: three timeouts, 31 s on SQLite and over a minute on MariaDB).
 */
describe('ban-list runs with a hanging or unreachable upstream (e2e)', () => {
  const upstream = new FakeBanlist();
  let app: TestApp;
  let operator: { 'x-api-key': string };
  const players: Array<{ uuid: string; mcid: string }> = [];

  beforeAll(async () => {
    const url = await upstream.start();
    app = await TestApp.start({ BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: String(TIMEOUT_MS), BANLIST_SYNC_CONCURRENCY: '4' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    const at = new Date('2024-01-01T00:00:00.000Z');
    for (let index = 0; index < 16; index += 1) {
      const player = newPlayer();
      await app.dataSource.getRepository(Player).insert({ uuid: player.uuid, mcid: player.mcid, mcidKey: player.mcid.toLowerCase(), chatid: null, permission: null, firstLogin: at, lastLogin: at, createdAt: at });
      players.push(player);
    }
  });

  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  it('spends one timeout on a hanging player, retries a 5xx twice, and refreshes everyone else', async () => {
    const [hanging, flaky, ...rest] = players;
    upstream.script(hanging.uuid, { hang: true });
    upstream.script(flaky.uuid, { status: 500 }, { status: 502 }, { status: 200, body: upstreamPlayer(flaky.uuid, 'Flaky', 7, [{ banId: 77001 }]) });
    for (const player of rest) {
      upstream.script(player.uuid, { status: 200, body: upstreamPlayer(player.uuid, player.mcid, 10, []) });
    }
    const started = Date.now();
    const result = await app.post('/users/banlist/sync', undefined, { headers: operator });
    const elapsed = Date.now() - started;
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ players: 16, updated: 15, failed: 1 });
    expect(upstream.requestsFor(hanging.uuid)).toHaveLength(1);
    expect(upstream.requestsFor(flaky.uuid)).toHaveLength(3);
    expect((await app.get(`/users/banlist/${flaky.uuid}`)).body).toMatchObject({ data: { reputation: 7 } });
    // One timeout, plus generous room for a busy machine; three timeouts would be over 6 s.
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 3000);
    const failure = app.logLines.find((line) => line.includes('Ban-list fetch failed') && line.includes(hanging.uuid));
    expect(failure).toMatch(/timed out/);
  });

  it('retries a refused connection twice per player, then counts it as failed', async () => {
    const refused = await TestApp.start(
      { BANLIST_SOURCE_URL: `http://127.0.0.1:${await closedPort()}`, BANLIST_TIMEOUT_MS: String(TIMEOUT_MS), BANLIST_SYNC_CONCURRENCY: '4' },
      { database: app.database },
    );
    try {
      const key = await refused.createApiKey(['operator']);
      const result = await refused.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': key } });
      expect(result.body).toMatchObject({ players: 16, updated: 0, failed: 16 });
      const failures = refused.logLines.filter((line) => line.includes('Ban-list fetch failed'));
      expect(failures).toHaveLength(16);
      expect(failures.every((line) => /ECONNREFUSED \(after 3 attempts\)/.test(line))).toBe(true);
    } finally {
      await refused.stop({ keepDatabase: true });
    }
  });
});
