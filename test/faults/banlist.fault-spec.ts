import { Player } from '../../src/players/player.entity';
import { FakeBanlist, upstreamPlayer } from '../support/fake-banlist';
import { freePort } from '../support/server-process';
import { TcpProxy } from '../support/tcp-proxy';
import { newPlayer, TestApp } from '../support/test-app';
import { duringFault, FAULTS, FaultTable, timeToRecover } from './fault-table';

const TIMEOUT_MS = 2000;

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
      { BANLIST_SOURCE_URL: `http://127.0.0.1:${await freePort()}`, BANLIST_TIMEOUT_MS: String(TIMEOUT_MS), BANLIST_SYNC_CONCURRENCY: '4' },
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

const FAULT_TIMEOUT_MS = 1000;
const TIMEOUTS_IN_A_ROW = 3;
const FAULT_PLAYERS = 8;
/**
 * A faulted run ends within the circuit breaker's few timeouts (two rounds of two workers, about
 * 2 s) or the retries of refused connections (three attempts with backoff per player, about 4 s),
 * with room for a loaded machine. The breaker itself is proven by the summary and the metric.
 */
const FAULT_BOUND_MS = 10_000;

/**
 * The ban-list upstream behind a TCP proxy (docs/reliability.md, "Outgoing calls, Redis and the
 * server's timeouts"): a run always ends within its deadline, stops after
 * BANLIST_MAX_TIMEOUTS_IN_A_ROW timeouts and says so, keeps every player's stored data, and the
 * next run after the fault refreshes everyone.
 */
describe('faults: the ban-list upstream', () => {
  const upstream = new FakeBanlist();
  const table = new FaultTable();
  let proxy: TcpProxy;
  let app: TestApp;
  let operator: { 'x-api-key': string };
  const uuids: string[] = [];

  beforeAll(async () => {
    const target = new URL(await upstream.start());
    proxy = new TcpProxy('127.0.0.1', Number(target.port));
    const proxyPort = await proxy.start();
    app = await TestApp.start({
      BANLIST_SOURCE_URL: `http://127.0.0.1:${proxyPort}`,
      BANLIST_TIMEOUT_MS: String(FAULT_TIMEOUT_MS),
      BANLIST_SYNC_CONCURRENCY: '2',
      BANLIST_MAX_TIMEOUTS_IN_A_ROW: String(TIMEOUTS_IN_A_ROW),
    });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    const at = new Date('2024-01-01T00:00:00.000Z');
    for (let index = 0; index < FAULT_PLAYERS; index += 1) {
      const player = newPlayer();
      await app.dataSource.getRepository(Player).insert({ uuid: player.uuid, mcid: player.mcid, mcidKey: player.mcid.toLowerCase(), chatid: null, permission: null, firstLogin: at, lastLogin: at, createdAt: at });
      upstream.script(player.uuid, { status: 200, body: upstreamPlayer(player.uuid, player.mcid, 7, [{ banId: 880_000 + index }]) });
      uuids.push(player.uuid);
    }
    // The data every faulted run must keep.
    expect((await sync()).body).toMatchObject({ players: FAULT_PLAYERS, updated: FAULT_PLAYERS, failed: 0 });
  });

  afterAll(async () => {
    table.print('Fault table: ban-list upstream (POST /users/banlist/sync)');
    await app?.stop();
    await proxy?.stop();
    await upstream.stop();
  });

  const sync = () => app.post('/users/banlist/sync', undefined, { headers: operator });

  async function stoppedRuns(): Promise<number> {
    const text = (await app.get('/metrics')).text;
    return Number(/banlist_sync_runs_total\{outcome="stopped"\} (\d+)/.exec(text)?.[1] ?? 'NaN');
  }

  it.each(FAULTS)('%s: the run answers within the deadline, keeps every player, and the next run after the fault refreshes all', async (fault) => {
    const stoppedBefore = await stoppedRuns();
    const [{ value: result, ms }] = await duringFault(proxy, fault, FAULT_TIMEOUT_MS + 500, sync, 1);
    expect(ms).toBeLessThan(FAULT_BOUND_MS);
    expect(result.status).toBe(200);
    const summary = result.body as { players: number; updated: number; failed: number; stoppedAfterTimeouts?: number };
    expect(summary.players).toBe(FAULT_PLAYERS);
    expect(summary.updated + summary.failed).toBe(FAULT_PLAYERS);
    if (fault === 'pause' || fault === 'slow') {
      // The circuit breaker: reported in the summary and the metrics.
      expect(summary).toMatchObject({ updated: 0, failed: FAULT_PLAYERS, stoppedAfterTimeouts: TIMEOUTS_IN_A_ROW });
      expect(await stoppedRuns()).toBe(stoppedBefore + 1);
    } else {
      expect(summary.stoppedAfterTimeouts).toBeUndefined();
    }
    let writesLost = 0;
    for (const uuid of uuids) {
      const stored = await app.get(`/users/banlist/${uuid}`);
      if (stored.status !== 200 || (stored.body as { data?: { reputation?: number } }).data?.reputation !== 7) {
        writesLost += 1;
      }
    }
    expect(writesLost).toBe(0);
    const recoveryMs = await timeToRecover(async () => {
      const next = await sync();
      return (next.body as { updated?: number }).updated === FAULT_PLAYERS;
    });
    table.add({
      dependency: 'ban-list',
      fault,
      answer: `200 (updated ${summary.updated}, failed ${summary.failed}${summary.stoppedAfterTimeouts ? ', stopped' : ''})`,
      slowestMs: ms,
      boundMs: FAULT_BOUND_MS,
      writesLost,
      recoveryMs,
    });
  });
});
