import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SyncLease } from '../src/banlist-sync/sync-lease.entity';
import { withDeadline } from '../src/common/timing/deadline';
import { Player } from '../src/players/player.entity';
import { FakeBanlist, upstreamPlayer } from './support/fake-banlist';
import { compileServer, ROOT, ServerProcess, startServerProcess } from './support/server-process';
import { newPlayer, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

const TIMEOUT_MS = 1500;

/**
 * Preloaded (`node --expose-gc --require …`): a full garbage collection every 100 ms, so a timer
 * or signal that nothing holds strongly is collected during the wait, as it would be at some
 * point in a long-running server.
 */
const GC_PRESSURE = `if (typeof gc !== 'function') { throw new Error('needs node --expose-gc'); }
setInterval(() => gc(), 100).unref();
`;

/**
 * The ban-list sync in the server as it ships (a spawned process), where the two defects of a
 * long-running server show: a timeout that garbage collection took away (docs/reliability.md:
 * "Outgoing calls, Redis and the server's timeouts"), and a crashed run's lease that blocked
 * every sync for five minutes.
 */
describe('ban-list sync deadlines and leases in a real server process (e2e)', () => {
  const upstream = new FakeBanlist();
  let upstreamUrl: string;
  let buildDir: string;
  let database: TestDatabase;
  let operatorKey: string;
  const uuids: string[] = [];
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    buildDir = mkdtempSync(join(tmpdir(), 'community-build-'));
    compileServer(buildDir);
    writeFileSync(join(buildDir, 'gc-pressure.js'), GC_PRESSURE);
    upstreamUrl = await upstream.start();
    database = await createTestDatabase();
    const setup = await TestApp.start({}, { database });
    operatorKey = await setup.createApiKey(['operator']);
    const at = new Date('2024-01-01T00:00:00.000Z');
    for (let index = 0; index < 2; index += 1) {
      const { uuid, mcid } = newPlayer();
      await setup.dataSource.getRepository(Player).insert({ uuid, mcid, mcidKey: mcid.toLowerCase(), chatid: null, permission: null, firstLogin: at, lastLogin: at, createdAt: at });
      uuids.push(uuid);
    }
    await setup.stop({ keepDatabase: true });
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await upstream.stop();
    rmSync(buildDir, { recursive: true, force: true });
    await database?.drop();
  });

  async function start(env: Record<string, string>): Promise<ServerProcess> {
    const server = await startServerProcess({
      entry: join(buildDir, 'main.js'),
      cwd: ROOT,
      env: { NODE_PATH: join(ROOT, 'node_modules'), NODE_ENV: 'test', APP_VERSION: 'deadline-test', DATABASE_URL: database.url, RATE_LIMIT_ENABLED: 'false', BANLIST_SOURCE_URL: upstreamUrl, ...env },
    });
    servers.push(server);
    await server.ready(60_000);
    return server;
  }

  /** The sync, with the test's own bound: a hanging server fails the test instead of stalling it. */
  const sync = (server: ServerProcess, boundMs: number) =>
    withDeadline(boundMs, (signal) => fetch(`${server.base}/users/banlist/sync`, { method: 'POST', headers: { 'x-api-key': operatorKey }, signal }), { what: 'POST /users/banlist/sync' });

  it('answers within the timeout while garbage collection runs every 100 ms during the wait', async () => {
    for (const uuid of uuids) {
      upstream.script(uuid, { hang: true });
    }
    const server = await start({
      NODE_OPTIONS: `--expose-gc --require ${join(buildDir, 'gc-pressure.js')}`,
      BANLIST_TIMEOUT_MS: String(TIMEOUT_MS),
      BANLIST_MAX_TIMEOUTS_IN_A_ROW: '100',
    });
    try {
      const started = Date.now();
      const response = await sync(server, 45_000);
      const elapsed = Date.now() - started;
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ players: 2, updated: 0, failed: 2 });
      // One timeout per player, fetched side by side. The room is generous (a collection every
      // 100 ms on a loaded machine slows everything down); without the fix the run never ends.
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(20_000);
    } finally {
      await server.stop();
    }
  });

  it('takes over the lease of a run whose process was killed, at once; never one whose holder lives', async () => {
    for (const uuid of uuids) {
      upstream.script(uuid, { hang: true }, { status: 200, body: upstreamPlayer(uuid, 'Back', 10, []) });
    }
    const crashing = await start({ BANLIST_TIMEOUT_MS: '60000' });
    const before = upstream.requests.length;
    const inFlight = sync(crashing, 120_000).catch(() => undefined);
    for (let waited = 0; upstream.requests.length < before + 2 && waited < 20_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(upstream.requests.length).toBe(before + 2);
    process.kill(-crashing.child.pid!, 'SIGKILL');
    await crashing.exited;
    await inFlight;

    const restarted = await start({ BANLIST_TIMEOUT_MS: '5000' });
    const response = await sync(restarted, 30_000);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ players: 2, updated: 2, failed: 0 });

    // A holder on this host whose process is alive (this test process, as a stand-in for a
    // replica beside the server) keeps its lease until it expires.
    const check = await TestApp.start({}, { database });
    try {
      await check.dataSource.getRepository(SyncLease).update({ name: 'banlist-sync' }, { holder: `${hostname()}:${process.pid}:replica`, expiresAt: new Date(Date.now() + 60_000) });
      expect((await sync(restarted, 30_000)).status).toBe(409);
      await check.dataSource.getRepository(SyncLease).update({ name: 'banlist-sync' }, { holder: null, expiresAt: null });
    } finally {
      await check.stop({ keepDatabase: true });
    }
  });
});
