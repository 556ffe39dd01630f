import { EventsRetention } from '../src/events/events-retention';
import { verifySignature } from '../src/events/webhook-signature';
import { HostResolver } from '../src/events/webhook-sender';
import { DeliveryAttempt, eventually, recordEvent } from './support/events';
import { runCli } from './support/run-cli';
import { expectError, TestApp } from './support/test-app';
import { sleep, WebhookReceiver, WebhookReceivers } from './support/webhook-receiver';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;


describe('webhooks (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };
  let gameServer: { 'x-api-key': string };
  const receivers = new WebhookReceivers();
  const receiver = (): Promise<WebhookReceiver> => receivers.start();
  const createHook = async (body: Record<string, unknown>) => {
    const created = await app.post<{ data: { id: number; url: string }; secret: string }>('/webhooks', body, { headers: operator });
    expect(created.status).toBe(201);
    return created.body;
  };
  const log = async (id: number): Promise<DeliveryAttempt[]> => (await app.get<{ data: DeliveryAttempt[] }>(`/webhooks/${id}/deliveries`, { headers: operator })).body.data;

  beforeAll(async () => {
    app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_TIMEOUT_MS: '800' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    gameServer = { 'x-api-key': await app.createApiKey(['game-server']) };
  });

  afterEach(async () => {
    // Webhooks of one test must not receive the events of the next.
    const hooks = await app.get<{ data: Array<{ id: number }> }>('/webhooks', { headers: operator });
    for (const hook of hooks.body.data) {
      await app.request('DELETE', `/webhooks/${hook.id}`, { headers: operator });
    }
  });

  afterAll(async () => {
    await app.stop();
    await receivers.stopAll();
  });

  it('asks for an operator key', async () => {
    expectError(await app.get('/webhooks'), 401, 'unauthorized');
    expectError(await app.get('/webhooks', { headers: gameServer }), 403, 'forbidden');
    expectError(await app.post('/webhooks', { url: 'http://127.0.0.1/x', events: ['*'] }, { headers: gameServer }), 403, 'forbidden');
    expectError(await app.request('DELETE', '/webhooks/1'), 401, 'unauthorized');
  });

  it('creates a webhook (secret shown once, URL masked), lists, changes and removes it', async () => {
    const created = await app.post<{ data: Record<string, unknown>; secret: string }>(
      '/webhooks',
      { url: 'http://127.0.0.1:9/private/path?token=abc', events: ['city.request.created', 'city.request.approved'] },
      { headers: operator },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: true, code: 201 });
    expect(created.body.secret.length).toBeGreaterThanOrEqual(32);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      url: 'http://127.0.0.1:9/…',
      events: ['city.request.created', 'city.request.approved'],
      format: 'json',
      active: true,
      createdAt: expect.stringMatching(ISO),
      lastDeliveryAt: null,
      failing: false,
    });
    const id = created.body.data.id as number;

    const listed = await app.get<{ data: unknown[] }>('/webhooks', { headers: operator });
    expect(listed.body.data).toEqual([created.body.data]);
    expect(listed.text).not.toContain(created.body.secret);
    expect(listed.text).not.toContain('token=abc');
    expect(app.logLines.join('\n')).not.toContain(created.body.secret);

    const paused = await app.request<{ data: Record<string, unknown> }>('PATCH', `/webhooks/${id}`, { body: { active: false, events: 'city.deleted,city.changed' }, headers: operator });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ id, active: false, events: ['city.deleted', 'city.changed'] });
    const moved = await app.request<{ data: Record<string, unknown> }>('PATCH', `/webhooks/${id}`, { body: { url: 'https://127.0.0.1/', events: ['*'] }, headers: operator });
    expect(moved.body.data).toMatchObject({ url: 'https://127.0.0.1/', events: ['*'] });
    // Form bodies carry the list as a JSON text.
    const form = await app.request<{ data: Record<string, unknown> }>('PATCH', `/webhooks/${id}`, {
      raw: `events=${encodeURIComponent('["city.changed"]')}&active=true`,
      contentType: 'application/x-www-form-urlencoded',
      headers: operator,
    });
    expect(form.body.data).toMatchObject({ events: ['city.changed'], active: true });

    expect((await app.request('DELETE', `/webhooks/${id}`, { headers: operator })).status).toBe(200);
    expectError(await app.request('DELETE', `/webhooks/${id}`, { headers: operator }), 404, 'not_found');
    expectError(await app.request('PATCH', `/webhooks/${id}`, { body: { active: true }, headers: operator }), 404, 'not_found');
    expectError(await app.get(`/webhooks/${id}/deliveries`, { headers: operator }), 404, 'not_found');
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const bad = [
      {},
      { url: 'ftp://example.org/x', events: ['*'] },
      { url: 'not a url', events: ['*'] },
      { url: 'http://user:pw@127.0.0.1/', events: ['*'] },
      { url: 'http://127.0.0.1/x' },
      { url: 'http://127.0.0.1/x', events: [] },
      { url: 'http://127.0.0.1/x', events: ['city.unknown'] },
      { url: 'http://127.0.0.1/x', events: 'nope' },
      { url: 'http://127.0.0.1/x', events: ['*'], format: 'xml' },
    ];
    for (const body of bad) {
      const result = expectError(await app.post('/webhooks', body, { headers: operator }), 400, 'invalid_request');
      expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]));
    }
    const created = await createHook({ url: 'http://127.0.0.1:9/x', events: ['*'] });
    expectError(await app.request('PATCH', `/webhooks/${created.data.id}`, { body: {}, headers: operator }), 400, 'invalid_request');
    expectError(await app.request('PATCH', `/webhooks/${created.data.id}`, { body: { active: 'maybe' }, headers: operator }), 400, 'invalid_request');
    expectError(await app.request('PATCH', '/webhooks/abc', { body: { active: true }, headers: operator }), 400, 'invalid_request');
    expect((await app.get<{ data: unknown[] }>('/webhooks', { headers: operator })).body.data).toHaveLength(1);
  });

  it('signs each delivery; the receiver verifies it with the secret from POST /webhooks, a wrong secret fails', async () => {
    const target = await receiver();
    const { data, secret } = await createHook({ url: target.url, events: ['banlist.sync.finished'] });
    await recordEvent(app, 'city.changed', { request: null, city: { id: 1 } }); // not subscribed
    const eventId = await recordEvent(app, 'banlist.sync.finished', { summary: { players: 3 } });
    const [request] = await target.waitFor(1);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-community-event']).toBe('banlist.sync.finished');
    expect(request.headers['x-community-delivery']).toMatch(UUID);
    const signature = request.headers['x-community-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Math.abs(Number(/t=(\d+)/.exec(signature)![1]) - Date.now() / 1000)).toBeLessThan(30);
    expect(verifySignature(secret, request.body, signature)).toBe(true);
    expect(verifySignature(`${secret}x`, request.body, signature)).toBe(false);
    expect(verifySignature(secret, request.body.replace('3', '4'), signature)).toBe(false);
    expect(JSON.parse(request.body)).toEqual({ id: eventId, type: 'banlist.sync.finished', at: expect.stringMatching(ISO), data: { summary: { players: 3 } } });
    await sleep(300);
    expect(target.requests).toHaveLength(1);
    const hook = (await app.get<{ data: Array<Record<string, unknown>> }>('/webhooks', { headers: operator })).body.data.find((entry) => entry.id === data.id);
    expect(hook).toMatchObject({ lastDeliveryAt: expect.stringMatching(ISO), failing: false });
  });

  it('retries 500, 500, 200 with the same delivery id and growing delays; the log shows all three', async () => {
    const target = await receiver();
    target.answers = [500, 500, 200];
    const { data } = await createHook({ url: target.url, events: ['*'] });
    const eventId = await recordEvent(app, 'city.deleted', { request: null, city: { id: 7 } });
    const requests = await target.waitFor(3);
    const ids = new Set(requests.map((request) => request.headers['x-community-delivery']));
    expect(ids.size).toBe(1);
    const first = requests[1].at - requests[0].at;
    const second = requests[2].at - requests[1].at;
    // Floors, not a comparison (load can only lengthen a delay): a constant delay would give a
    // second gap of about 200 ms and fail the doubled floor.
    expect(first).toBeGreaterThanOrEqual(190); // WEBHOOK_RETRY_BASE_MS
    expect(second).toBeGreaterThanOrEqual(390); // doubled
    await sleep(300);
    expect(target.requests).toHaveLength(3);
    await eventually(async () => expect(await log(data.id)).toHaveLength(3));
    const attempts = await log(data.id);
    expect(attempts.map((entry) => [entry.attempt, entry.status, entry.eventId])).toEqual([
      [3, 200, eventId],
      [2, 500, eventId],
      [1, 500, eventId],
    ]);
    expect(new Set(attempts.map((entry) => entry.deliveryId))).toEqual(ids);
    for (const entry of attempts) {
      expect(entry).toEqual({ deliveryId: expect.stringMatching(UUID), eventId, attempt: expect.any(Number), status: expect.any(Number), error: null, durationMs: expect.any(Number), at: expect.stringMatching(ISO) });
    }
  });

  it('cuts a receiver that does not answer at the timeout and tries again', async () => {
    const target = await receiver();
    target.answers = ['hang', 204];
    const { data } = await createHook({ url: target.url, events: ['*'] });
    await recordEvent(app, 'city.deleted', { request: null, city: { id: 8 } });
    const requests = await target.waitFor(2);
    // 800 ms timeout (WEBHOOK_TIMEOUT_MS), then the 200 ms first retry delay.
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(950);
    await eventually(async () => expect(await log(data.id)).toHaveLength(2));
    const attempts = await log(data.id);
    expect(attempts[1]).toMatchObject({ attempt: 1, status: null, error: expect.stringContaining('800 ms') });
    expect(attempts[1].durationMs).toBeGreaterThanOrEqual(750);
    expect(attempts[1].durationMs).toBeLessThan(3000);
    expect(attempts[0]).toMatchObject({ attempt: 2, status: 204, error: null });
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const elsewhere = await receiver();
    const target = await receiver();
    target.answers = [{ status: 302, headers: { location: elsewhere.url } }, 200];
    const { data } = await createHook({ url: target.url, events: ['*'] });
    await recordEvent(app, 'city.deleted', { request: null, city: { id: 9 } });
    await target.waitFor(2);
    await eventually(async () => expect((await log(data.id)).map((entry) => entry.status)).toEqual([200, 302]));
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('pings now with POST /webhooks/{id}/test and answers with the outcome, success or not', async () => {
    const target = await receiver();
    target.answers = [200, 503];
    const { data, secret } = await createHook({ url: target.url, events: ['city.changed'] });
    const ok = await app.post<{ data: DeliveryAttempt }>(`/webhooks/${data.id}/test`, undefined, { headers: operator });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ deliveryId: expect.stringMatching(UUID), eventId: null, attempt: 1, status: 200, error: null, durationMs: expect.any(Number), at: expect.stringMatching(ISO) });
    const [ping] = target.requests;
    expect(ping.headers['x-community-event']).toBe('ping');
    expect(ping.headers['x-community-delivery']).toBe(ok.body.data.deliveryId);
    expect(verifySignature(secret, ping.body, ping.headers['x-community-signature'] as string)).toBe(true);
    expect(JSON.parse(ping.body)).toMatchObject({ id: null, type: 'ping', data: { webhookId: data.id } });

    const failed = await app.post<{ data: DeliveryAttempt }>(`/webhooks/${data.id}/test`, undefined, { headers: operator });
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ status: 503, eventId: null });
    await target.stop();
    const refused = await app.post<{ data: DeliveryAttempt }>(`/webhooks/${data.id}/test`, undefined, { headers: operator });
    expect(refused.body.data).toMatchObject({ status: null, error: expect.stringMatching(/ECONNREFUSED|refused/) });
    expect((await log(data.id)).map((entry) => entry.status)).toEqual([null, 503, 200]);
    const hook = (await app.get<{ data: Array<Record<string, unknown>> }>('/webhooks', { headers: operator })).body.data[0];
    expect(hook).toMatchObject({ failing: true });
    expectError(await app.post('/webhooks/999999/test', undefined, { headers: operator }), 404, 'not_found');
  });

  it('redelivers a finished delivery with the same delivery id; a queued one is 409, an unknown one 404', async () => {
    const target = await receiver();
    const { data } = await createHook({ url: target.url, events: ['*'] });
    const eventId = await recordEvent(app, 'city.changed', { request: null, city: { id: 10 } });
    await target.waitFor(1);
    await eventually(async () => expect(await log(data.id)).toHaveLength(1));
    const [delivered] = await log(data.id);
    const again = await app.post<{ data: DeliveryAttempt }>(`/webhooks/${data.id}/deliveries/${delivered.deliveryId}/redeliver`, undefined, { headers: operator });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ deliveryId: delivered.deliveryId, eventId, attempt: 2, status: 200 });
    expect(target.requests[1].headers['x-community-delivery']).toBe(delivered.deliveryId);
    expect(target.requests[1].body).toBe(target.requests[0].body);

    target.fallback = 500;
    const failing = await recordEvent(app, 'city.changed', { request: null, city: { id: 11 } });
    await target.waitFor(3);
    await eventually(async () => expect((await log(data.id))[0].eventId).toBe(failing));
    const [queued] = await log(data.id);
    expectError(await app.post(`/webhooks/${data.id}/deliveries/${queued.deliveryId}/redeliver`, undefined, { headers: operator }), 409, 'conflict');
    expectError(await app.post(`/webhooks/${data.id}/deliveries/6f1c2a4e-1d2b-4c3d-9e8f-0a1b2c3d4e5f/redeliver`, undefined, { headers: operator }), 404, 'not_found');
    expectError(await app.post(`/webhooks/${data.id}/deliveries/nope/redeliver`, undefined, { headers: operator }), 400, 'invalid_request');
  });

  it('delivers to a paused webhook nothing; resumed, it catches up in order', async () => {
    const target = await receiver();
    const { data } = await createHook({ url: target.url, events: ['city.changed'] });
    await app.request('PATCH', `/webhooks/${data.id}`, { body: { active: false }, headers: operator });
    const first = await recordEvent(app, 'city.changed', { request: null, city: { id: 1 } });
    const second = await recordEvent(app, 'city.changed', { request: null, city: { id: 2 } });
    await sleep(1200);
    expect(target.requests).toHaveLength(0);
    await app.request('PATCH', `/webhooks/${data.id}`, { body: { active: true }, headers: operator });
    await target.waitFor(2);
    expect(target.bodies<{ id: number }>().map((body) => body.id)).toEqual([first, second]);
  });

  it('a new webhook receives only events recorded after its creation', async () => {
    await recordEvent(app, 'city.changed', { request: null, city: { id: 3 } });
    const target = await receiver();
    await createHook({ url: target.url, events: ['*'] });
    const later = await recordEvent(app, 'city.changed', { request: null, city: { id: 4 } });
    await target.waitFor(1);
    await sleep(300);
    expect(target.bodies<{ id: number }>().map((body) => body.id)).toEqual([later]);
  });

  it('purges events and finished deliveries older than 30 days, keeps pending ones', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000);
    const oldId = await recordEvent(app, 'city.changed', { request: null, city: { id: 5 } }, old);
    const recentId = await recordEvent(app, 'city.changed', { request: null, city: { id: 6 } });
    const removed = await app.app.get(EventsRetention).purge();
    expect(removed.events).toBeGreaterThanOrEqual(1);
    const feed = await app.get<{ data: Array<{ id: number }> }>('/events', { query: { after: oldId - 1, limit: 500 }, headers: operator });
    const ids = feed.body.data.map((event) => event.id);
    expect(ids).not.toContain(oldId);
    expect(ids).toContain(recentId);
  });

  it('webhook:add, webhook:list and webhook:remove on the command line', async () => {
    const env = { DATABASE_URL: app.database.url, WEBHOOK_ALLOW_PRIVATE: 'true' };
    const added = await runCli(['webhook:add', '--url', 'http://127.0.0.1:9/cli/secret-path', '--events', 'city.request.created,city.deleted', '--format', 'discord', '--json'], env);
    expect(added.code).toBe(0);
    const created = JSON.parse(added.stdout) as { data: { id: number; url: string; events: string[]; format: string }; secret: string };
    expect(created.secret.length).toBeGreaterThanOrEqual(32);
    expect(created.data).toMatchObject({ url: 'http://127.0.0.1:9/…', events: ['city.request.created', 'city.deleted'], format: 'discord' });
    const listed = await runCli(['webhook:list', '--json'], env);
    const list = JSON.parse(listed.stdout) as { webhooks: Array<{ id: number }> };
    expect(list.webhooks.map((hook) => hook.id)).toContain(created.data.id);
    expect(listed.stdout).not.toContain(created.secret);
    expect((await app.get<{ data: Array<{ id: number }> }>('/webhooks', { headers: operator })).body.data.map((hook) => hook.id)).toContain(created.data.id);
    const refused = await runCli(['webhook:add', '--url', 'http://127.0.0.1/x', '--json'], { DATABASE_URL: app.database.url, WEBHOOK_ALLOW_PRIVATE: 'false' });
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toEqual({ error: expect.stringMatching(/not allowed.*WEBHOOK_ALLOW_PRIVATE=true/) });
    expect((await runCli(['webhook:add', '--url', 'http://127.0.0.1/x', '--events', 'nope', '--json'], env)).code).toBe(2);
    expect((await runCli(['webhook:remove', '--id', String(created.data.id), '--json'], env)).code).toBe(0);
    expect((await runCli(['webhook:remove', '--id', String(created.data.id), '--json'], env)).code).toBe(2);
  });
});

describe('webhook SSRF guard (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };
  let resolver: HostResolver;
  const lookups: string[] = [];
  /** Injected name resolution: no real lookup ever happens in these tests. */
  let table: Record<string, string[]> = {};

  beforeAll(async () => {
    app = await TestApp.start({ WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_TIMEOUT_MS: '800' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    resolver = app.app.get(HostResolver);
    jest.spyOn(resolver, 'resolve').mockImplementation((host: string) => {
      lookups.push(host);
      const addresses = table[host];
      if (!addresses) {
        return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
      }
      return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) })));
    });
  });

  afterAll(async () => {
    await app.stop();
  });

  it.each([
    ['loopback', 'http://127.0.0.1/hook'],
    ['loopback, other address', 'http://127.1.2.3:8080/hook'],
    ['private', 'http://10.0.0.1/hook'],
    ['private 192.168', 'https://192.168.1.10/hook'],
    ['link-local (metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', 'http://[::1]/hook'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ['unspecified', 'http://0.0.0.0/hook'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/x'],
    ['IPv4-translated loopback', 'http://[::ffff:0:127.0.0.1]/x'],
    ['6to4 of loopback', 'http://[2002:7f00:1::]/x'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x'],
  ])('refuses %s (%s) with 400 before connecting, naming WEBHOOK_ALLOW_PRIVATE', async (_label, url) => {
    const result = expectError(await app.post('/webhooks', { url, events: ['*'] }, { headers: operator }), 400, 'invalid_request');
    expect(result.body.details).toEqual([expect.objectContaining({ field: 'url', message: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=true'), message_ja: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=true') })]);
  });

  it('refuses a name that resolves to a private address, and one that does not resolve', async () => {
    table = { 'intranet.example': ['10.1.2.3'], 'mixed.example': ['93.184.216.34', '192.168.0.5'], 'v6.example': ['fd00::5'] };
    for (const host of ['intranet.example', 'mixed.example', 'v6.example', 'nowhere.example']) {
      expectError(await app.post('/webhooks', { url: `https://${host}/hook`, events: ['*'] }, { headers: operator }), 400, 'invalid_request');
    }
    expect(lookups).toEqual(expect.arrayContaining(['intranet.example', 'mixed.example', 'v6.example', 'nowhere.example']));
    expect((await app.get<{ data: unknown[] }>('/webhooks', { headers: operator })).body.data).toHaveLength(0);
  });

  it('checks again at delivery on the address it would connect to: a name now resolving to loopback is refused without a connection', async () => {
    const target = await WebhookReceiver.start();
    try {
      // At create the name resolves to a public address (nothing connects at create) …
      table = { 'rebind.example': ['93.184.216.34'] };
      const created = await app.post<{ data: { id: number } }>('/webhooks', { url: `http://rebind.example:${target.port}/hook`, events: ['*'] }, { headers: operator });
      expect(created.status).toBe(201);
      // … and to loopback when the delivery goes out (DNS rebinding).
      table = { 'rebind.example': ['127.0.0.1'] };
      const ping = await app.post<{ data: DeliveryAttempt }>(`/webhooks/${created.body.data.id}/test`, undefined, { headers: operator });
      expect(ping.body.data).toMatchObject({ status: null, error: expect.stringContaining('refused') });
      await recordEvent(app, 'city.changed', { request: null, city: { id: 1 } });
      await sleep(1000);
      expect(target.requests).toHaveLength(0);
      const attempts = (await app.get<{ data: DeliveryAttempt[] }>(`/webhooks/${created.body.data.id}/deliveries`, { headers: operator })).body.data;
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(attempts.every((entry) => entry.status === null && entry.error!.includes('refused'))).toBe(true);
      await app.request('DELETE', `/webhooks/${created.body.data.id}`, { headers: operator });
    } finally {
      await target.stop();
    }
  });
});

describe('webhook delivery connects to the address it checked (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };

  beforeAll(async () => {
    app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '200' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
  });

  afterAll(async () => {
    await app.stop();
  });

  it('resolves once through the injected resolver and sends the name in the Host header', async () => {
    const target = await WebhookReceiver.start();
    try {
      const resolve = jest.spyOn(app.app.get(HostResolver), 'resolve').mockResolvedValue([{ address: '127.0.0.1', family: 4 }]);
      const created = await app.post<{ data: { id: number } }>('/webhooks', { url: `http://receiver.example:${target.port}/hook`, events: ['*'] }, { headers: operator });
      expect(created.status).toBe(201);
      resolve.mockClear();
      const ping = await app.post<{ data: DeliveryAttempt }>(`/webhooks/${created.body.data.id}/test`, undefined, { headers: operator });
      expect(ping.body.data.status).toBe(200);
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(target.requests[0].headers.host).toBe(`receiver.example:${target.port}`);
    } finally {
      await target.stop();
    }
  });
});
