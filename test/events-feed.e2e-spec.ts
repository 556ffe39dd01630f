import Redis from 'ioredis';
import { UnitOfWork } from '../src/database/unit-of-work';
import { EventsService } from '../src/events/events.service';
import { expectError, registerClubUser, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { sleep } from './support/webhook-receiver';
import { recordEvent } from './support/events';
import { BuiltServer, ServerProcess } from './support/server-process';

interface Feed {
  data: Array<{ id: number; type: string; at: string; data: Record<string, unknown> }>;
  next: number;
}

describe('change feed GET /events (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };
  let gameServer: { 'x-api-key': string };

  beforeAll(async () => {
    app = await TestApp.start();
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    gameServer = { 'x-api-key': await app.createApiKey(['game-server']) };
  });

  afterAll(async () => {
    await app.stop();
  });

  const feed = (query: Record<string, string | number>, headers: Record<string, string> = gameServer) => app.get<Feed>('/events', { query, headers });

  it('needs an operator or game-server API key', async () => {
    expectError(await app.get('/events'), 401, 'unauthorized');
    expectError(await app.get('/events', { headers: { 'x-api-key': 'csk_unknown' } }), 401, 'unauthorized');
    const club = await registerClubUser(app, gameServer['x-api-key'], { admin: true });
    expectError(await app.get('/events', { headers: { authorization: `Bearer ${club.usertoken}` } }), 401, 'unauthorized');
    expect((await feed({}, operator)).status).toBe(200);
    expect((await feed({}, gameServer)).status).toBe(200);
    expect((await app.get('/v1/events', { query: { apikey: gameServer['x-api-key'] } })).status).toBe(200);
  });

  it('validates after, limit and wait', async () => {
    const bad: Array<Record<string, string | number>> = [{ after: -1 }, { after: 'x' }, { limit: 0 }, { limit: 501 }, { wait: 31 }, { wait: -1 }, { wait: '1.5' }];
    for (const query of bad) {
      const result = expectError(await app.get('/events', { query, headers: gameServer }), 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: Object.keys(query)[0] })]);
    }
  });

  it('pages events oldest first; next is the last id returned, or after when none', async () => {
    const start = (await feed({ after: 0, limit: 500 })).body;
    const base = start.next;
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(await recordEvent(app, 'city.changed', { request: null, city: { id: i } }));
    }
    expect(ids).toEqual([base + 1, base + 2, base + 3, base + 4, base + 5]);
    const page1 = (await feed({ after: base, limit: 2 })).body;
    expect(page1).toMatchObject({ status: true, code: 200, next: base + 2 });
    expect(page1.data.map((event) => event.id)).toEqual([base + 1, base + 2]);
    expect(page1.data[0]).toEqual({ id: base + 1, type: 'city.changed', at: expect.stringMatching(/Z$/), data: { request: null, city: { id: 0 } } });
    const page2 = (await feed({ after: page1.next })).body;
    expect(page2.data.map((event) => event.id)).toEqual([base + 3, base + 4, base + 5]);
    const empty = (await feed({ after: page2.next })).body;
    expect(empty).toMatchObject({ data: [], next: base + 5 });
    expect((await feed({ after: 999_999 })).body).toMatchObject({ data: [], next: 999_999 });
  });

  it('a change that rolls back leaves no event and no gap', async () => {
    const before = (await feed({ after: 0, limit: 500 })).body.next;
    await expect(
      app.app.get(UnitOfWork).transaction(async (manager) => {
        await app.app.get(EventsService).record(manager, 'city.deleted', { request: null, city: { id: 1 } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const id = await recordEvent(app, 'city.deleted', { request: null, city: { id: 2 } });
    expect(id).toBe(before + 1);
    expect((await feed({ after: before })).body.data.map((event) => event.type)).toEqual(['city.deleted']);
  });

  it('long-poll: waits, and answers as soon as an event of this process commits', async () => {
    const after = (await feed({ after: 0, limit: 500 })).body.next;
    const started = Date.now();
    const waiting = feed({ after, wait: 10 });
    await sleep(300);
    const id = await recordEvent(app, 'city.changed', { request: null, city: { id: 3 } });
    const recordedAt = Date.now();
    const result = (await waiting).body;
    expect(result.data.map((event) => event.id)).toEqual([id]);
    expect(Date.now() - recordedAt).toBeLessThan(250);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('long-poll: answers empty after wait seconds', async () => {
    const after = (await feed({ after: 0, limit: 500 })).body.next;
    const started = Date.now();
    const result = (await feed({ after, wait: 1 })).body;
    expect(result).toMatchObject({ data: [], next: after });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('serves events only in commit order: an event committing late never appears after a greater id', async () => {
    const unitOfWork = app.app.get(UnitOfWork);
    const events = app.app.get(EventsService);
    const after = (await feed({ after: 0, limit: 500 })).body.next;
    const seen: number[] = [];
    let polling = true;
    const consumer = (async () => {
      let cursor = after;
      while (polling) {
        const page = (await feed({ after: cursor })).body;
        seen.push(...page.data.map((event) => event.id));
        cursor = page.next;
        await sleep(10);
      }
      const rest = (await feed({ after: cursor })).body;
      seen.push(...rest.data.map((event) => event.id));
    })();
    // Slow: takes its id, then keeps its transaction open; Fast: starts later and commits at once.
    let slowId = 0;
    let fastId = 0;
    const slow = unitOfWork.transaction(async (manager) => {
      slowId = await events.record(manager, 'city.changed', { request: null, city: { id: 'slow' } });
      await sleep(400);
    });
    await sleep(100);
    const fast = unitOfWork.transaction(async (manager) => {
      fastId = await events.record(manager, 'city.changed', { request: null, city: { id: 'fast' } });
    });
    await Promise.all([slow, fast]);
    await sleep(100);
    polling = false;
    await consumer;
    expect(slowId).toBeLessThan(fastId);
    expect(seen).toEqual([slowId, fastId]);
  });
});

describe('change feed across instances (e2e)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it.each([
    ['polling the latest id (no Redis)', {}],
    ['Redis pub/sub', { REDIS_URL: 'redis://127.0.0.1:6379' }],
  ])('a GET /events?wait=10 on one instance returns within one second of a change on another (%s)', async (_label, env: Record<string, string>) => {
    const first = await TestApp.start(env, { database });
    const second = await TestApp.start(env, { database, captcha: first.captcha });
    // With Redis, the notification really travels through it.
    const listener = env.REDIS_URL ? new Redis(env.REDIS_URL) : undefined;
    const messages: string[] = [];
    await listener?.subscribe('community:events');
    listener?.on('message', (_channel: string, message: string) => messages.push(message));
    try {
      const key = { 'x-api-key': await first.createApiKey(['game-server']) };
      const after = (await second.get<Feed>('/events', { query: { limit: 500 }, headers: key })).body.next;
      for (let round = 0; round < 3; round += 1) {
        const waiting = second.get<Feed>('/events', { query: { after: after + round, wait: 10 }, headers: key });
        await sleep(400);
        const id = await recordEvent(first, 'city.changed', { request: null, city: { id: round } });
        const committedAt = Date.now();
        const result = await waiting;
        expect(result.body.data.map((event) => event.id)).toEqual([id]);
        expect(Date.now() - committedAt).toBeLessThan(1000);
      }
      if (listener) {
        expect(messages.length).toBeGreaterThanOrEqual(3);
      }
    } finally {
      listener?.disconnect();
      await second.stop({ keepDatabase: true, keepCaptcha: true });
      await first.stop({ keepDatabase: true });
    }
  });

  it('a long-poll answers at once when the application closes', async () => {
    const app = await TestApp.start({}, { database });
    const key = { 'x-api-key': await app.createApiKey(['game-server']) };
    const after = (await app.get<Feed>('/events', { query: { limit: 500 }, headers: key })).body.next;
    // connection: close — the server's SIGTERM handler sweeps idle keep-alive connections (main.ts); a bare app.close() does not.
    const waiting = app.get<Feed>('/events', { query: { after, wait: 30 }, headers: { ...key, connection: 'close' } });
    await sleep(300);
    const closing = Date.now();
    await app.stop({ keepDatabase: true });
    const result = await waiting;
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ data: [], next: after });
    expect(Date.now() - closing).toBeLessThan(2000);
  });
});

describe('SIGTERM during a long-poll (real server process, e2e)', () => {
  let build: BuiltServer;
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  let key: string;

  beforeAll(async () => {
    build = BuiltServer.build();
    database = await createTestDatabase();
    const setup = await TestApp.start({}, { database });
    key = await setup.createApiKey(['game-server']);
    await setup.stop({ keepDatabase: true });
  });

  afterAll(async () => {
    await server?.stop();
    build.remove();
    await database?.drop();
  });

  it('the waiting GET /events answers at once and the process exits 0 without waiting out the poll', async () => {
    server = await build.start({ DATABASE_URL: database.url, APP_VERSION: 'sigterm-test', LOG_LEVEL: 'info' });
    await server.ready(20_000);
    const { base, child, output, exited } = server;
    const waiting = fetch(`${base}/events?wait=30`, { headers: { 'x-api-key': key } }).then(async (response) => ({ status: response.status, body: (await response.json()) as Feed }));
    await sleep(500);
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const answer = await waiting;
    expect(Date.now() - signalledAt).toBeLessThan(2000);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5000);
    expect(output.join('')).toContain('Shutdown complete');
  });
});
