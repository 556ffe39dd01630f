import { eventually, recordEvent } from './support/events';
import { TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase, testDatabaseKind } from './support/test-database';
import { sleep, WebhookReceiver } from './support/webhook-receiver';

interface Attempt {
  deliveryId: string;
  eventId: number | null;
  attempt: number;
  status: number | null;
  error: string | null;
}

const eventIdOf = (body: string): number => (JSON.parse(body) as { id: number }).id;

describe('webhook delivery order and durability (e2e)', () => {
  let database: TestDatabase;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await database.drop();
  });

  const receiver = async (): Promise<WebhookReceiver> => {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  };

  it('keeps event order per webhook: event 2 waits until event 1 succeeds or is marked failed', async () => {
    const app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '150', WEBHOOK_RETRY_WINDOW_SECONDS: '2' }, { database });
    try {
      const operator = { 'x-api-key': await app.createApiKey(['operator']) };
      const target = await receiver();
      const created = await app.post<{ data: { id: number } }>('/webhooks', { url: target.url, events: ['*'] }, { headers: operator });
      // Event A: fails twice, then succeeds. Event B: always fails (its window runs out). Event C: succeeds.
      const failures = new Map<number, number>();
      let a = 0;
      let b = 0;
      target.decide = (request) => {
        const id = eventIdOf(request.body);
        const seen = (failures.get(id) ?? 0) + 1;
        failures.set(id, seen);
        if (id === a) {
          return seen <= 2 ? 500 : 200;
        }
        return id === b ? 503 : 200;
      };
      a = await recordEvent(app, 'city.changed', { request: null, city: { id: 1 } });
      b = await recordEvent(app, 'city.changed', { request: null, city: { id: 2 } });
      const bRecordedAt = Date.now();
      const c = await recordEvent(app, 'city.changed', { request: null, city: { id: 3 } });
      await eventually(() => expect(target.requests.map((request) => eventIdOf(request.body))).toContain(c), 15_000);
      const order = target.requests.map((request) => eventIdOf(request.body));
      // Every request for A precedes every request for B, which precede C's.
      expect(order.slice(0, 3)).toEqual([a, a, a]);
      expect(order.slice(3, -1).every((id) => id === b)).toBe(true);
      expect(order.slice(3, -1).length).toBeGreaterThanOrEqual(2);
      expect(order[order.length - 1]).toBe(c);
      const cArrived = target.requests[target.requests.length - 1].at;
      // B was given up only once its event was older than the 2 s window.
      expect(cArrived - bRecordedAt).toBeGreaterThanOrEqual(1900);
      await eventually(async () => {
        const log = (await app.get<{ data: Attempt[] }>(`/webhooks/${created.body.data.id}/deliveries`, { headers: operator })).body.data;
        expect(log[0]).toMatchObject({ eventId: c, status: 200, attempt: 1 });
        expect(log.filter((entry) => entry.eventId === b).every((entry) => entry.status === 503)).toBe(true);
        expect(new Set(log.filter((entry) => entry.eventId === b).map((entry) => entry.deliveryId)).size).toBe(1);
      });
    } finally {
      await app.stop({ keepDatabase: true });
    }
  });

  it('delivers a pending delivery after a restart, with the same delivery id', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '1500' };
    const target = await receiver();
    target.fallback = 500;
    const first = await TestApp.start(env, { database });
    const operatorKey = await first.createApiKey(['operator']);
    const created = await first.post<{ data: { id: number } }>('/webhooks', { url: target.url, events: ['city.deleted'] }, { headers: { 'x-api-key': operatorKey } });
    const eventId = await recordEvent(first, 'city.deleted', { request: null, city: { id: 9 } });
    const [failed] = await target.waitFor(1);
    // The first attempt is recorded; the delivery waits for its retry when the instance goes away.
    await eventually(async () => {
      const log = (await first.get<{ data: Attempt[] }>(`/webhooks/${created.body.data.id}/deliveries`, { headers: { 'x-api-key': operatorKey } })).body.data;
      expect(log.map((entry) => [entry.attempt, entry.status])).toEqual([[1, 500]]);
    });
    await first.stop({ keepDatabase: true });
    target.fallback = 200;

    const second = await TestApp.start(env, { database });
    try {
      const [, delivered] = await target.waitFor(2, 10_000);
      expect(eventIdOf(delivered.body)).toBe(eventId);
      expect(delivered.headers['x-community-delivery']).toBe(failed.headers['x-community-delivery']);
      await eventually(async () => {
        const log = (await second.get<{ data: Attempt[] }>(`/webhooks/${created.body.data.id}/deliveries`, { headers: { 'x-api-key': operatorKey } })).body.data;
        expect(log.map((entry) => [entry.attempt, entry.status])).toEqual([
          [2, 200],
          [1, 500],
        ]);
      });
      await sleep(500);
      expect(target.requests).toHaveLength(2);
    } finally {
      await second.stop({ keepDatabase: true });
    }
  });

  it('records an attempt answered during shutdown, so the restart does not send it again', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '1500' };
    const target = await receiver();
    // The receiver takes its time: the shutdown starts while the request is in flight.
    target.fallback = { status: 200, delayMs: 800 };
    const first = await TestApp.start(env, { database });
    const operatorKey = await first.createApiKey(['operator']);
    const created = await first.post<{ data: { id: number } }>('/webhooks', { url: target.url, events: ['city.deleted'] }, { headers: { 'x-api-key': operatorKey } });
    await recordEvent(first, 'city.deleted', { request: null, city: { id: 11 } });
    await target.waitFor(1);
    await first.stop({ keepDatabase: true });

    const second = await TestApp.start(env, { database });
    try {
      const log = (await second.get<{ data: Attempt[] }>(`/webhooks/${created.body.data.id}/deliveries`, { headers: { 'x-api-key': operatorKey } })).body.data;
      expect(log.map((entry) => [entry.attempt, entry.status])).toEqual([[1, 200]]);
      await sleep(2000);
      expect(target.requests).toHaveLength(1);
    } finally {
      await second.stop({ keepDatabase: true });
    }
  });

  // Two server processes share a MariaDB database in production; two instances inside one test process on one
  // SQLite file would only measure SQLite's synchronous busy wait blocking the shared event loop.
  const onMysql = testDatabaseKind === 'mysql' ? it : it.skip;
  onMysql('two instances on one database: 50 events reach each webhook exactly once, in order', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '100' };
    const one = await TestApp.start(env, { database });
    const two = await TestApp.start(env, { database, captcha: one.captcha });
    try {
      const operator = { 'x-api-key': await one.createApiKey(['operator']) };
      const targets = [await receiver(), await receiver(), await receiver()];
      // One receiver is slow, so deliveries overlap in time across the instances.
      targets[2].decide = () => undefined;
      for (const target of targets) {
        const created = await one.post('/webhooks', { url: target.url, events: ['city.changed'] }, { headers: operator });
        expect(created.status).toBe(201);
      }
      const ids: number[] = [];
      const writes: Array<Promise<number>> = [];
      for (let i = 0; i < 50; i += 1) {
        writes.push(recordEvent(i % 2 === 0 ? one : two, 'city.changed', { request: null, city: { id: i } }));
        if (i % 10 === 9) {
          ids.push(...(await Promise.all(writes.splice(0))));
        }
      }
      ids.sort((x, y) => x - y);
      for (const target of targets) {
        await target.waitFor(50, 30_000);
      }
      await sleep(1500);
      for (const target of targets) {
        const delivered = target.requests.map((request) => eventIdOf(request.body));
        expect(delivered).toEqual(ids);
        expect(new Set(target.requests.map((request) => request.headers['x-community-delivery'])).size).toBe(50);
      }
    } finally {
      await two.stop({ keepDatabase: true, keepCaptcha: true });
      await one.stop({ keepDatabase: true });
    }
  });
});

describe('Discord format (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };
  let gameServer: { 'x-api-key': string };

  beforeAll(async () => {
    app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '200' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    gameServer = { 'x-api-key': await app.createApiKey(['game-server']) };
  });

  afterAll(async () => {
    await app.stop();
  });

  it('posts a Japanese message with an embed and honours a 429 retry_after without counting it as an attempt', async () => {
    const discord = await WebhookReceiver.start('/api/webhooks/123/token');
    try {
      // Discord's rate limit answer: 429 with retry_after in seconds, once.
      discord.answers = [{ status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.6, global: false }), headers: { 'retry-after': '1' } }];
      discord.fallback = 204;
      const requester = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', mcid: 'Notch' };
      await app.post('/game-server/userkeys', requester, { headers: gameServer });
      const linked = await app.request('PUT', `/game-server/chat-links/${requester.uuid}`, { body: { chatid: '123456789012345678' }, headers: gameServer });
      expect(linked.status).toBe(200);
      const created = await app.post<{ data: { id: number; url: string; format: string } }>('/webhooks', { url: discord.url, events: ['city.request.approved'], format: 'discord' }, { headers: operator });
      expect(created.body.data).toMatchObject({ format: 'discord', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/…$/) });
      await recordEvent(app, 'city.request.approved', {
        request: { id: 5, type: 'create', status: 'approved', cityId: 12, requester, changes: { cityName: 'Chuo' }, rejectReason: null, decidedBy: 'apikey:ops' },
        city: { id: 12, name: 'Chuo', nameKana: 'ちゅうおう', owner: { uuid: requester.uuid, mcid: 'Notch', chatid: '123456789012345678' } },
      });
      const [limited, sent] = await discord.waitFor(2);
      expect(sent.at - limited.at).toBeGreaterThanOrEqual(550);
      expect(sent.headers['x-community-delivery']).toBe(limited.headers['x-community-delivery']);
      const body = JSON.parse(sent.body) as { content: string; embeds: Array<{ title: string; fields: Array<{ name: string; value: string }>; timestamp: string }>; allowed_mentions: unknown };
      expect(body.content).toBe('<@123456789012345678> 「Chuo」の新規登録申請が承認されました。');
      expect(body.embeds).toHaveLength(1);
      expect(body.embeds[0].title).toBe('自治体の申請（新規登録）が承認されました');
      expect(body.embeds[0].fields).toEqual([
        { name: '自治体', value: 'Chuo (#12)', inline: true },
        { name: '申請者', value: '<@123456789012345678> (Notch)', inline: true },
        { name: '種別', value: '新規登録', inline: true },
        { name: '判断', value: '承認', inline: true },
        { name: '判断者', value: '運営 (ops)', inline: true },
      ]);
      expect(body.allowed_mentions).toEqual({ parse: [], users: ['123456789012345678'] });
      await eventually(async () => {
        const log = (await app.get<{ data: Attempt[] }>(`/webhooks/${created.body.data.id}/deliveries`, { headers: operator })).body.data;
        expect(log.map((entry) => [entry.attempt, entry.status])).toEqual([[1, 204]]);
      });
    } finally {
      await discord.stop();
    }
  });

  it('a rejection names the reason; a test ping is a Japanese message too', async () => {
    const discord = await WebhookReceiver.start('/api/webhooks/1/t');
    try {
      discord.fallback = 204;
      const created = await app.post<{ data: { id: number } }>('/webhooks', { url: discord.url, events: ['city.request.rejected'], format: 'discord' }, { headers: operator });
      const ping = await app.post<{ data: Attempt }>(`/webhooks/${created.body.data.id}/test`, undefined, { headers: operator });
      expect(ping.body.data.status).toBe(204);
      expect((JSON.parse(discord.requests[0].body) as { content: string }).content).toContain('テスト通知');
      await recordEvent(app, 'city.request.rejected', {
        request: { id: 6, type: 'region', status: 'rejected', cityId: 3, requester: { uuid: '11111111-2222-4333-a444-555555555555', mcid: 'Builder' }, rejectReason: '他の都市と重なっています', decidedBy: 'apikey:ops' },
        city: { id: 3, name: 'Kita', owner: { uuid: '11111111-2222-4333-a444-555555555555', mcid: 'Builder', chatid: null } },
      });
      const [, rejected] = await discord.waitFor(2);
      const body = JSON.parse(rejected.body) as { content: string; embeds: Array<{ fields: Array<{ name: string; value: string }> }>; allowed_mentions: { users: string[] } };
      expect(body.content).toBe('「Kita」の区域変更申請は却下されました。');
      expect(body.embeds[0].fields).toEqual(
        expect.arrayContaining([
          { name: '申請者', value: 'Builder', inline: true },
          { name: '判断', value: '却下', inline: true },
          { name: '理由', value: '他の都市と重なっています', inline: false },
        ]),
      );
      expect(body.allowed_mentions.users).toEqual([]);
    } finally {
      await discord.stop();
    }
  });
});
