import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cityFieldsFactory } from '../support/cities';
import { TcpProxy } from '../support/tcp-proxy';
import { newPlayer, TestApp } from '../support/test-app';
import type { TestDatabase } from '../support/test-database';
import { sleep, WebhookReceiver, type ReceivedRequest } from '../support/webhook-receiver';

/**
 * Webhook receivers behind a TCP proxy, one fault at a time (pause, reset, slow, refuse): the API
 * never waits on a receiver, the other webhook keeps being delivered, every (webhook, event)
 * reaches the faulty receiver with one delivery id per event, and delivery resumes by itself
 * when the fault ends. Short deadlines so that the suite runs in about a minute.
 */

const TIMEOUT_MS = 1500;
const FAULT_MS = 3000;
const cityFields = cityFieldsFactory({ name: 'Fault', kana: 'ふぉると', kanaDigits: 'あいうえおかきくけこ', z: 130_000 });

interface Fault {
  name: string;
  /** Starts the fault; the returned function ends it. */
  start(proxy: TcpProxy): () => void;
}

const FAULTS: Fault[] = [
  {
    name: 'pause (stalled peer)',
    start: (proxy) => {
      proxy.pause();
      return () => proxy.up();
    },
  },
  {
    name: 'reset (flapping peer)',
    start: (proxy) => {
      proxy.resetOpen();
      // Every connection is reset shortly after it opens, for the whole window.
      const timer = setInterval(() => proxy.resetOpen(), 100);
      return () => clearInterval(timer);
    },
  },
  {
    name: `slow (1000 ms a packet, timeout ${TIMEOUT_MS} ms)`,
    start: (proxy) => {
      proxy.slow(1000);
      return () => proxy.up();
    },
  },
  {
    name: 'refuse (receiver down)',
    start: (proxy) => {
      proxy.down();
      return () => proxy.up();
    },
  },
];

interface Row {
  fault: string;
  apiMaxMs: number;
  healthyMaxMs: number;
  faultyRequestsDuringFault: number;
  recoveryMs: number;
  lost: number;
}

const eventIdOf = (request: ReceivedRequest): number => (JSON.parse(request.body) as { id: number }).id;

describe('webhook receivers under faults (faults)', () => {
  let dir: string;
  let app: TestApp;
  let proxy: TcpProxy;
  let faulty: WebhookReceiver;
  let healthy: WebhookReceiver;
  let gameServerKey: string;
  let operator: { 'x-api-key': string };
  const rows: Row[] = [];

  beforeAll(async () => {
    // Once, on SQLite, whatever TEST_DATABASE says: the receivers are the dependency under test.
    dir = mkdtempSync(join(tmpdir(), 'community-faults-webhooks-'));
    const database: TestDatabase = { url: `sqlite:${join(dir, 'test.sqlite')}`, drop: () => Promise.resolve() };
    app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_BASE_MS: '200' }, { database });
    faulty = await WebhookReceiver.start();
    healthy = await WebhookReceiver.start();
    proxy = new TcpProxy('127.0.0.1', faulty.port);
    const proxyPort = await proxy.start();
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    for (const url of [`http://127.0.0.1:${proxyPort}/hook`, healthy.url]) {
      expect((await app.post('/webhooks', { url, events: ['city.request.created'] }, { headers: operator })).status).toBe(201);
    }
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    const table = [
      '| fault | API max (ms) | healthy webhook max delay (ms) | requests reaching the faulty receiver during the fault | delivery resumed after the fault ended (ms) | (webhook, event) lost |',
      '|---|---|---|---|---|---|',
      ...rows.map((row) => `| ${row.fault} | ${row.apiMaxMs} | ${row.healthyMaxMs} | ${row.faultyRequestsDuringFault} | ${row.recoveryMs} | ${row.lost} |`),
    ].join('\n');
    process.stdout.write(`\nWebhook receiver faults (WEBHOOK_TIMEOUT_MS ${TIMEOUT_MS}, WEBHOOK_RETRY_BASE_MS 200, fault held ${FAULT_MS} ms):\n${table}\n\n`);
    await app?.stop();
    await proxy?.stop();
    await faulty?.stop();
    await healthy?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(FAULTS.map((fault) => [fault.name, fault]))('%s', async (_name, fault) => {
    const faultyBefore = faulty.requests.length;
    const healthyBefore = healthy.requests.length;
    const end = fault.start(proxy);
    const faultStarted = Date.now();
    const recorded: Array<{ requestId: number; at: number }> = [];
    const apiMs: number[] = [];
    // Requests that record events (and read the deliveries) while the receiver is faulty.
    while (Date.now() - faultStarted < FAULT_MS) {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const started = Date.now();
      // An operator's forced create: a new city at once, and its events.
      const created = await app.post<{ requestId: number }>('/cities/create', { usertoken: userkey, force: true, ...cityFields() }, { headers: operator });
      apiMs.push(Date.now() - started);
      expect(created.status).toBe(201);
      recorded.push({ requestId: created.body.requestId, at: started });
      const listed = Date.now();
      expect((await app.get('/events', { query: { after: 0, limit: 1 }, headers: operator })).status).toBe(200);
      apiMs.push(Date.now() - listed);
      await sleep(400);
    }
    const faultyDuring = faulty.requests.length - faultyBefore;
    end();
    const endedAt = Date.now();

    // The healthy webhook got each event promptly, fault or not.
    await healthy.waitFor(healthyBefore + recorded.length, 10_000);
    const healthyNew = healthy.requests.slice(healthyBefore);
    const wanted = healthyNew.map(eventIdOf);
    const healthyDelays = healthyNew.map((request, index) => request.at - recorded[index].at);

    // The faulty one gets every event once the fault is over, each under one delivery id.
    const deadline = Date.now() + 30_000;
    let reached = new Set<number>();
    while (Date.now() < deadline) {
      reached = new Set(faulty.requests.slice(faultyBefore).filter((request) => request.at >= faultStarted).map(eventIdOf));
      if (wanted.every((id) => reached.has(id))) {
        break;
      }
      await sleep(50);
    }
    const last = faulty.requests.filter((request) => wanted.includes(eventIdOf(request))).reduce((latest, request) => Math.max(latest, request.at), 0);
    const lost = wanted.filter((id) => !reached.has(id)).length;
    rows.push({
      fault: fault.name,
      apiMaxMs: Math.max(...apiMs),
      healthyMaxMs: Math.max(...healthyDelays),
      faultyRequestsDuringFault: faultyDuring,
      recoveryMs: Math.max(last - endedAt, 0),
      lost,
    });
    expect(lost).toBe(0);
    for (const id of wanted) {
      const deliveries = new Set(faulty.requests.filter((request) => eventIdOf(request) === id).map((request) => request.headers['x-community-delivery']));
      expect(deliveries.size).toBe(1);
    }
    // Generous bounds for a loaded 2-core machine; the table has the real figures.
    expect(Math.max(...apiMs)).toBeLessThan(1000);
    expect(Math.max(...healthyDelays)).toBeLessThan(3000);
    expect(last - endedAt).toBeLessThan(15_000);
    await sleep(500);
  });
});
