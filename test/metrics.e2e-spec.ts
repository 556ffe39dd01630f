import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config/app-config';
import type { Transaction } from '../src/database/transaction';
import { UnitOfWork } from '../src/database/unit-of-work';
import { Player } from '../src/players/player.entity';
import { FakeBanlist, upstreamPlayer } from './support/fake-banlist';
import { testDatabaseKind } from './support/test-database';
import { expectError, newPlayer, TestApp } from './support/test-app';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample of the text format (0 when the series is absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const requests = (route: string, method: string, status: number): string => `http_requests_total{route="${route}",method="${method}",status="${status}"}`;

async function knownPlayer(app: TestApp): Promise<string> {
  const { uuid, mcid } = newPlayer();
  const at = new Date('2024-01-01T00:00:00.000Z');
  await app.dataSource.getRepository(Player).insert({ uuid, mcid, mcidKey: mcid.toLowerCase(), chatid: null, permission: null, firstLogin: at, lastLogin: at, createdAt: at });
  return uuid;
}

describe('GET /metrics (e2e)', () => {
  const upstream = new FakeBanlist();
  /** No METRICS_TOKEN: loopback only. Limits on; addresses from X-Forwarded-For sent by 127.0.0.1. */
  let app: TestApp;
  let operatorKey: string;

  const scrape = async (): Promise<string> => {
    const result = await app.get('/metrics');
    expect(result.status).toBe(200);
    return result.text;
  };

  beforeAll(async () => {
    app = await TestApp.start({ BANLIST_SOURCE_URL: await upstream.start(), RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE: 'true' });
    operatorKey = await app.createApiKey(['operator']);
  });

  afterAll(async () => {
    await app?.stop();
    await upstream.stop();
  });

  it('answers the Prometheus text format, not the envelope, with the process metrics', async () => {
    const result = await app.get('/metrics');
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(result.body).toBeUndefined();
    expect(result.text).toContain('# TYPE http_requests_total counter');
    expect(result.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(result.text).toContain('process_resident_memory_bytes');
    expect(result.text).toContain('nodejs_eventloop_lag_seconds');
    expect(result.headers.get('cache-control')).toBe('no-store');
  });

  it('counts requests by route template and status, /v1 and unknown paths included', async () => {
    const before = await scrape();
    await app.get('/cities/999999');
    await app.get('/v1/cities/999998');
    await app.get('/cities');
    await app.get('/no/such/path/1');
    await app.get('/no/such/path/2');
    const after = await scrape();
    expect(sample(after, requests('/cities/:id', 'GET', 404)) - sample(before, requests('/cities/:id', 'GET', 404))).toBe(2);
    expect(sample(after, requests('/cities', 'GET', 200)) - sample(before, requests('/cities', 'GET', 200))).toBe(1);
    // Unknown paths share one label value, so they cannot grow the number of series.
    expect(sample(after, requests('unmatched', 'GET', 404)) - sample(before, requests('unmatched', 'GET', 404))).toBe(2);
    expect(after).not.toContain('/no/such/path');
    const count = `http_request_duration_seconds_count{route="/cities/:id",method="GET",status="404"}`;
    expect(sample(after, count) - sample(before, count)).toBe(2);
    const slowest = `http_request_duration_seconds_bucket{route="/cities/:id",method="GET",status="404",le="+Inf"}`;
    expect(sample(after, slowest)).toBe(sample(after, count));
  });

  it('is not served under /v1', async () => {
    expectError(await app.get('/v1/metrics'), 404, 'not_found');
  });

  it('without METRICS_TOKEN refuses anything relayed by a proxy (403)', async () => {
    expectError(await app.get('/metrics', { headers: { 'x-forwarded-for': '127.0.0.1' } }), 403, 'forbidden');
    expectError(await app.get('/metrics', { headers: { 'x-forwarded-for': '203.0.113.5' } }), 403, 'forbidden');
  });

  it.each([
    ['forwarded', 'for=203.0.113.5;proto=https'],
    ['x-forwarded-host', 'community.example.org'],
    ['x-real-ip', '203.0.113.5'],
    ['true-client-ip', '203.0.113.5'],
    ['cf-connecting-ip', '203.0.113.5'],
    ['x-real-ip', '127.0.0.1'],
  ])('without METRICS_TOKEN refuses a loopback request relayed with %s: %s (403)', async (name, value) => {
    expectError(await app.get('/metrics', { headers: { [name]: value } }), 403, 'forbidden');
  });

  it('counts rate-limit refusals of sign-ins and of requests', async () => {
    const ghost = `ghost_${Date.now() % 100000}`;
    const signIn = () => app.post('/club/token', { username: ghost, password: 'wrong-password', recaptcha: 'pass' }, { headers: { 'x-forwarded-for': '203.0.113.20' } });
    const before = await scrape();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expectError(await signIn(), 401, 'unauthorized');
    }
    expectError(await signIn(), 429, 'rate_limited');
    // 600 requests a minute per address: the 601st from 203.0.113.21 is refused.
    const flood = await Promise.all(Array.from({ length: 605 }, () => app.get('/health', { headers: { 'x-forwarded-for': '203.0.113.21' } })));
    expect(flood.filter((result) => result.status === 429)).toHaveLength(5);
    const after = await scrape();
    expect(sample(after, 'rate_limit_refusals_total{limit="account-address"}') - sample(before, 'rate_limit_refusals_total{limit="account-address"}')).toBe(1);
    expect(sample(after, 'rate_limit_refusals_total{limit="requests"}') - sample(before, 'rate_limit_refusals_total{limit="requests"}')).toBe(5);
    expect(sample(after, requests('/health', 'GET', 429)) - sample(before, requests('/health', 'GET', 429))).toBe(5);
  });

  it('counts ban-list runs by outcome: finished, and skipped while another run holds the lease', async () => {
    const uuid = await knownPlayer(app);
    upstream.script(uuid, { status: 200, body: upstreamPlayer(uuid, 'Slow', 10, []), delayMs: 500 });
    const before = await scrape();
    const sync = () => app.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': operatorKey } });
    const results = await Promise.all([sync(), sync()]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const after = await scrape();
    expect(sample(after, 'banlist_sync_runs_total{outcome="finished"}') - sample(before, 'banlist_sync_runs_total{outcome="finished"}')).toBe(1);
    expect(sample(after, 'banlist_sync_runs_total{outcome="skipped"}') - sample(before, 'banlist_sync_runs_total{outcome="skipped"}')).toBe(1);
    expect(sample(after, 'banlist_sync_runs_total{outcome="failed"}')).toBe(0);
  });

  it('counts webhook deliveries by outcome', async () => {
    const receiver = createServer((request, response) => {
      request.resume();
      response.writeHead(request.url === '/ok' ? 204 : 500).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      const before = await scrape();
      for (const path of ['/ok', '/broken']) {
        const created = await app.post<{ data: { id: number } }>('/webhooks', { url: `${base}${path}`, events: ['city.deleted'] }, { headers: { 'x-api-key': operatorKey } });
        expect(created.status).toBe(201);
        expect((await app.post(`/webhooks/${created.body.data.id}/test`, undefined, { headers: { 'x-api-key': operatorKey } })).status).toBe(200);
      }
      const after = await scrape();
      expect(sample(after, 'webhook_deliveries_total{outcome="delivered"}') - sample(before, 'webhook_deliveries_total{outcome="delivered"}')).toBe(1);
      expect(sample(after, 'webhook_deliveries_total{outcome="failed"}') - sample(before, 'webhook_deliveries_total{outcome="failed"}')).toBe(1);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('counts database errors that end a request, by kind', async () => {
    const before = await scrape();
    const uuid = await knownPlayer(app);
    await app.dataSource.query('ALTER TABLE banlist_bans RENAME TO banlist_bans_moved');
    try {
      const failed = await app.get(`/users/banlist/ban/424242`);
      expectError(failed, 500, 'internal_error');
    } finally {
      await app.dataSource.query('ALTER TABLE banlist_bans_moved RENAME TO banlist_bans');
    }
    expect((await app.get(`/users/banlist/${uuid}`)).status).toBe(404);
    const after = await scrape();
    expect(sample(after, 'database_errors_total{kind="query"}') - sample(before, 'database_errors_total{kind="query"}')).toBe(1);
    expect(sample(after, 'database_errors_total{kind="unavailable"}')).toBe(0);
  });

  (testDatabaseKind === 'mysql' ? it : it.skip)('counts deadlock retries (MariaDB: two transactions locking in opposite order)', async () => {
    const unitOfWork = app.app.get(UnitOfWork);
    // Create both lock rows first: locking a missing row takes a gap lock, and the other
    // transaction's insert would then wait on it instead of deadlocking.
    await unitOfWork.transaction((manager) => unitOfWork.lock(manager, 'metrics-a'));
    await unitOfWork.transaction((manager) => unitOfWork.lock(manager, 'metrics-b'));
    const before = await scrape();
    let arrived = 0;
    let release!: () => void;
    const bothHoldTheirFirstLock = new Promise<void>((resolve) => (release = resolve));
    const lockBoth = (first: string, second: string) => async (manager: Transaction) => {
      await unitOfWork.lock(manager, first);
      arrived += 1;
      if (arrived === 2) {
        release();
      }
      await bothHoldTheirFirstLock;
      await unitOfWork.lock(manager, second);
    };
    await Promise.all([unitOfWork.transaction(lockBoth('metrics-a', 'metrics-b')), unitOfWork.transaction(lockBoth('metrics-b', 'metrics-a'))]);
    const after = await scrape();
    expect(sample(after, 'database_deadlock_retries_total') - sample(before, 'database_deadlock_retries_total')).toBeGreaterThanOrEqual(1);
  });
});

describe('GET /metrics with METRICS_TOKEN (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start({ METRICS_TOKEN: TOKEN });
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('needs the bearer token: missing or wrong → 401 envelope', async () => {
    expectError(await app.get('/metrics'), 401, 'unauthorized');
    expectError(await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}-wrong` } }), 401, 'unauthorized');
    expectError(await app.get('/metrics', { headers: { authorization: TOKEN } }), 401, 'unauthorized');
    expectError(await app.get('/metrics', { query: { token: TOKEN } }), 401, 'unauthorized');
  });

  it('answers the right token, also through a proxy', async () => {
    const direct = await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(direct.status).toBe(200);
    expect(direct.text).toContain('http_requests_total{route="/metrics",method="GET",status="401"}');
    const proxied = await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.7' } });
    expect(proxied.status).toBe(200);
    const relayed = await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}`, forwarded: 'for=203.0.113.7', 'x-real-ip': '203.0.113.7' } });
    expect(relayed.status).toBe(200);
  });

  it('never writes the token to the log', () => {
    expect(app.logLines.filter((line) => line.includes(TOKEN))).toEqual([]);
  });

  it('refuses a token shorter than 16 characters at start, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});
