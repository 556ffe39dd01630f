import { recordEvent } from './support/events';
import { expectError, HttpResult, TestApp } from './support/test-app';

/**
 * Long-poll places per consumer (docs/reliability.md, "Fair shares"): per API key and per address
 * as well as in total, so one key (or one address) cannot hold every place and lock the real
 * consumer out of the feed. Small bounds here; the defaults are 100, 100 and 1,000.
 */
describe('long-poll places per API key and per address (e2e)', () => {
  let app: TestApp;
  let flooderKey: string;
  let pluginKey: string;
  let otherKey: string;

  beforeAll(async () => {
    app = await TestApp.start({ TRUST_PROXY: '127.0.0.1', EVENTS_MAX_WAITERS: '5', EVENTS_MAX_WAITERS_PER_KEY: '2', EVENTS_MAX_WAITERS_PER_ADDRESS: '3' });
    [flooderKey, pluginKey, otherKey] = await Promise.all([app.createApiKey(['game-server']), app.createApiKey(['game-server']), app.createApiKey(['operator'])]);
  });

  afterAll(async () => {
    await app?.stop();
  });

  /** A long-poll far past the last event, so it waits until an event arrives or `wait` ends. */
  const longPoll = (key: string, address: string, wait = 10): Promise<HttpResult> =>
    app.get('/events', { query: { after: 0, wait }, headers: { 'x-api-key': key, 'x-forwarded-for': address } });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('refuses a key past its share with 429 and Retry-After while another key still waits, and past the total with 503', async () => {
    // An event at 0 would answer at once: start from the latest.
    const after = await recordEvent(app, 'city.changed', { id: 1 });
    const waitFrom = (key: string, address: string) =>
      app.get('/events', { query: { after, wait: 10 }, headers: { 'x-api-key': key, 'x-forwarded-for': address } });

    const flood = [waitFrom(flooderKey, '203.0.113.1'), waitFrom(flooderKey, '203.0.113.2')];
    await settle();
    // The same key from a third address: its share (2) is used up.
    const byKey = await waitFrom(flooderKey, '203.0.113.3');
    expectError(byKey, 429, 'rate_limited');
    expect(byKey.headers.get('retry-after')).toBe('5');
    expect(byKey.body.message).toMatch(/API key already has 2 long-polls/);
    // The game server's own key still gets a place, from the flooder's address too.
    const plugin = waitFrom(pluginKey, '203.0.113.1');
    const other = waitFrom(otherKey, '203.0.113.1');
    await settle();
    // 203.0.113.1 now holds three places (flooder, plugin, other): its share.
    const byAddress = await waitFrom(pluginKey, '203.0.113.1');
    expectError(byAddress, 429, 'rate_limited');
    expect(byAddress.body.message).toMatch(/address already has 3 long-polls/);
    // Four places taken; one more from elsewhere fills the total (5); the next gets 503 as before.
    const fifth = waitFrom(pluginKey, '198.51.100.7');
    await settle();
    const full = await waitFrom(otherKey, '198.51.100.8');
    expectError(full, 503, 'service_unavailable');
    expect(full.headers.get('retry-after')).toBe('1');

    // An event answers every waiter; their places are given back.
    const next = await recordEvent(app, 'city.changed', { id: 2 });
    const answered = await Promise.all([...flood, plugin, other, fifth]);
    expect(answered.map((result) => [result.status, (result.body.data as Array<{ id: number }>).map((event) => event.id)])).toEqual(Array(5).fill([200, [next]]));
    const again = longPoll(flooderKey, '203.0.113.3', 1);
    expect((await again).status).toBe(200);
  });

  it('holds no place for a long-poll that answers at once', async () => {
    await recordEvent(app, 'city.changed', { id: 3 });
    const results = await Promise.all(Array.from({ length: 8 }, () => longPoll(flooderKey, '203.0.113.9')));
    expect(results.map((result) => result.status)).toEqual(Array(8).fill(200));
  });
});
