import { UnitOfWork } from '../src/database/unit-of-work';
import { HostResolver } from '../src/events/webhook-sender';
import { cityFieldsFactory } from './support/cities';
import { DeliveryAttempt, eventually, recordEvent } from './support/events';
import { expectError, registerClubUser, TestApp } from './support/test-app';
import { sleep, WebhookReceiver, WebhookReceivers } from './support/webhook-receiver';

const cityFields = cityFieldsFactory({ name: 'Hook', kana: 'ふっく', kanaDigits: 'あいうえおかきくけこ', z: 120_000 });


/** Settles with `work`, or fails after `ms` (a hang must fail the test, not time it out). */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('webhook worker: one slow receiver, slow DNS (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };
  const receivers = new WebhookReceivers();
  const receiver = (): Promise<WebhookReceiver> => receivers.start();
  const addWebhook = async (url: string, events: string[] = ['*']): Promise<number> => {
    const created = await app.post<{ data: { id: number } }>('/webhooks', { url, events }, { headers: operator });
    expect(created.status).toBe(201);
    return created.body.data.id;
  };

  beforeAll(async () => {
    app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '4000' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
  });

  afterAll(async () => {
    await app.stop();
    await receivers.stopAll();
  });

  it("a receiver answering after 3 s does not hold up another webhook: a new city's events reach the fast one promptly", async () => {
    const slow = await receiver();
    slow.fallback = { status: 200, delayMs: 3000 };
    const fast = await receiver();
    const slowId = await addWebhook(slow.url);
    const fastId = await addWebhook(fast.url, ['city.request.created']);
    // The slow receiver gets a queue of several deliveries (about 3 s each) …
    for (let i = 0; i < 4; i += 1) {
      await recordEvent(app, 'city.changed', { request: null, city: { id: i } });
    }
    await slow.waitFor(1);
    // … and while it works through them, a new city is filed.
    const gameServerKey = await app.createApiKey(['game-server']);
    const owner = await registerClubUser(app, gameServerKey);
    const filedAt = Date.now();
    const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    expect(created.status).toBe(201);
    const [arrived] = await fast.waitFor(1, 20_000);
    const delayMs = arrived.at - filedAt;
    process.stdout.write(`fast receiver got the new city's event ${delayMs} ms after the request (slow receiver: ${slow.requests.length} request(s) so far)\n`);
    expect(JSON.parse(arrived.body)).toMatchObject({ type: 'city.request.created' });
    // Before: the fast webhook waited until the slow one's turn ended (about 12 s here).
    expect(delayMs).toBeLessThan(2500);
    expect(slow.requests.length).toBeLessThan(4);
    await app.request('DELETE', `/webhooks/${slowId}`, { headers: operator });
    await app.request('DELETE', `/webhooks/${fastId}`, { headers: operator });
  });

  it('one deadline covers the DNS lookup and the request: a lookup that never answers ends in WEBHOOK_TIMEOUT_MS, at create and at delivery', async () => {
    const target = await receiver();
    const resolver = app.app.get(HostResolver);
    const answering = jest.spyOn(resolver, 'resolve').mockResolvedValue([{ address: '127.0.0.1', family: 4 }]);
    const id = await addWebhook(`http://hooks.example:${target.port}/hook`);
    answering.mockImplementation(() => new Promise(() => undefined));
    try {
      let started = Date.now();
      const refused = await within(15_000, app.post('/webhooks', { url: `http://silent-dns.example:${target.port}/hook`, events: ['*'] }, { headers: operator }));
      const createMs = Date.now() - started;
      expectError(refused, 400, 'invalid_request');
      started = Date.now();
      const ping = await within(15_000, app.post<{ data: DeliveryAttempt }>(`/webhooks/${id}/test`, undefined, { headers: operator }));
      const pingMs = Date.now() - started;
      process.stdout.write(`silent DNS: POST /webhooks answered 400 after ${createMs} ms, a test ping gave up after ${pingMs} ms (WEBHOOK_TIMEOUT_MS 4000)\n`);
      expect(ping.body.data).toMatchObject({ status: null, error: expect.stringContaining('did not finish within 4000 ms') });
      for (const ms of [createMs, pingMs]) {
        expect(ms).toBeGreaterThanOrEqual(3800);
        expect(ms).toBeLessThan(8000);
      }
      expect(target.requests).toHaveLength(0);
    } finally {
      answering.mockRestore();
      await app.request('DELETE', `/webhooks/${id}`, { headers: operator });
    }
  });
});

// A fresh instance of its own: no other webhook's work may share (and so slow down) its passes.
describe('webhook worker: failing bookkeeping (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };
  let target: WebhookReceiver;

  beforeAll(async () => {
    app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    target = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await app.stop();
    await target.stop();
  });

  const deliveries = async (id: number): Promise<DeliveryAttempt[]> => (await app.get<{ data: DeliveryAttempt[] }>(`/webhooks/${id}/deliveries`, { headers: operator })).body.data;

  it('when recording an attempt fails, the worker backs off (1 s, 2 s, …) and retries with the same delivery id', async () => {
    const created = await app.post<{ data: { id: number } }>('/webhooks', { url: target.url, events: ['*'] }, { headers: operator });
    const id = created.body.data.id;
    const unitOfWork = app.app.get(UnitOfWork);
    // A real database error in the worker's own bookkeeping: the attempts log is gone for a while.
    await unitOfWork.transaction((manager) => manager.run('ALTER TABLE webhook_attempts RENAME TO webhook_attempts_away'));
    let renamedBack = false;
    try {
      const eventId = await recordEvent(app, 'city.deleted', { request: null, city: { id: 77 } });
      await target.waitFor(1);
      const firstAt = target.requests[0].at;
      await sleep(4200);
      const sent = target.requests.filter((request) => request.at - firstAt <= 4000).length;
      process.stdout.write(`with failing bookkeeping: ${sent} sends in the first 4 s\n`);
      // Before: one send every 500 ms (8-9 in 4 s). Now: at 0, ~1 s and ~3 s.
      expect(sent).toBeGreaterThanOrEqual(2);
      expect(sent).toBeLessThanOrEqual(4);
      await unitOfWork.transaction((manager) => manager.run('ALTER TABLE webhook_attempts_away RENAME TO webhook_attempts'));
      renamedBack = true;
      await eventually(async () => expect((await deliveries(id)).map((entry) => [entry.eventId, entry.status])).toEqual([[eventId, 200]]), 15_000);
      const ids = new Set(target.requests.map((request) => request.headers['x-community-delivery']));
      expect(ids.size).toBe(1);
      const count = target.requests.length;
      await sleep(1000);
      expect(target.requests).toHaveLength(count);
    } finally {
      if (!renamedBack) {
        await unitOfWork.transaction((manager) => manager.run('ALTER TABLE webhook_attempts_away RENAME TO webhook_attempts')).catch(() => undefined);
      }
      await app.request('DELETE', `/webhooks/${id}`, { headers: operator });
    }
  });

});
