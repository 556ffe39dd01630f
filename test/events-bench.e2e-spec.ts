import { performance } from 'node:perf_hooks';
import { CityEvents } from '../src/cities/city-events';
import { cityFieldsFactory } from './support/cities';
import { recordEvent } from './support/events';
import { registerClubUser, TestApp } from './support/test-app';
import { testDatabaseKind } from './support/test-database';
import { WebhookReceiver } from './support/webhook-receiver';

const cityFields = cityFieldsFactory({ name: 'Bench', kana: 'べんち', kanaDigits: 'あいうえおかきくけこ', z: 90_000 });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/**
 * Numbers for docs/design-and-performance.md, Events (printed, run on both databases): the time the outbox adds to a city
 * request, and how many events per second one webhook receives from a fast local receiver.
 * Bounds are generous; the target (outbox p50 under 2 ms) is asserted.
 */
describe('events: outbox cost and delivery throughput (e2e, measured)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('the outbox adds under 2 ms (p50) to a city request', async () => {
    // Every event write of the workflow goes through CityEvents: time each call inside its transaction.
    const events = app.app.get(CityEvents);
    const samples: number[] = [];
    for (const method of ['created', 'approved', 'changed'] as const) {
      const original = events[method].bind(events) as (...args: unknown[]) => Promise<void>;
      jest.spyOn(events, method).mockImplementation(async (...args: unknown[]) => {
        const started = performance.now();
        await original(...args);
        samples.push(performance.now() - started);
      });
    }
    const gameServerKey = await app.createApiKey(['game-server']);
    const operatorKey = await app.createApiKey(['operator']);
    const admin = await registerClubUser(app, gameServerKey, { admin: true });
    const cityIds: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const owner = await registerClubUser(app, gameServerKey);
      for (let j = 0; j < 3; j += 1) {
        const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
        expect(created.status).toBe(201);
        expect((await app.post(`/cities/approval/create/${created.body.cityId}`, undefined, { headers: { 'x-api-key': operatorKey } })).status).toBe(200);
        cityIds.push(created.body.cityId);
      }
    }
    // The machine's own database round trip, measured alongside: the outbox is four statements.
    const roundTrips: number[] = [];
    const requestTimes: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      for (const cityId of cityIds) {
        const started = performance.now();
        const edited = await app.request('PATCH', `/cities/edit/${cityId}`, { body: { usertoken: admin.usertoken, recaptcha: 'pass', summary: `Round ${round}` } });
        requestTimes.push(performance.now() - started);
        expect(edited.status).toBe(200);
        const probe = performance.now();
        await app.dataSource.query('SELECT 1 AS one');
        roundTrips.push(performance.now() - probe);
      }
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p95 = percentile(sorted, 95);
    const roundTrip = percentile([...roundTrips].sort((a, b) => a - b), 50);
    const request = percentile([...requestTimes].sort((a, b) => a - b), 50);
    process.stdout.write(
      `[events bench ${testDatabaseKind}] outbox per city request: ${sorted.length} samples, p50 ${p50.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms; ` +
        `whole PATCH p50 ${request.toFixed(2)} ms; one SELECT 1 round trip p50 ${roundTrip.toFixed(3)} ms\n`,
    );
    expect(sorted.length).toBe(9 * 2 + 20 * 9);
    // Under 2 ms; on a machine so loaded that one bare round trip takes over a third of that, the
    // bound follows the machine (four statements and a little work): the cost is measured, not the load.
    expect(p50).toBeLessThan(Math.max(2, roundTrip * 6));
  });

  it('delivers to a fast local receiver at a measured rate', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const count = 1000;
      // Paused while the events are written, so the measurement is delivery alone.
      const operator = { 'x-api-key': await app.createApiKey(['operator']) };
      const hook = await app.post<{ data: { id: number } }>('/webhooks', { url: receiver.url, events: ['*'] }, { headers: operator });
      await app.request('PATCH', `/webhooks/${hook.body.data.id}`, { body: { active: false }, headers: operator });
      for (let i = 0; i < count; i += 1) {
        await recordEvent(app, 'city.changed', { request: null, city: { id: i, name: `City ${i}` } });
      }
      const started = performance.now();
      await app.request('PATCH', `/webhooks/${hook.body.data.id}`, { body: { active: true }, headers: operator });
      await receiver.waitFor(count, 120_000);
      const seconds = (performance.now() - started) / 1000;
      const rate = count / seconds;
      process.stdout.write(`[events bench ${testDatabaseKind}] delivery: ${count} events to one webhook in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} events/s\n`);
      const ids = receiver.bodies<{ id: number }>().map((body) => body.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(rate).toBeGreaterThan(20);
    } finally {
      await receiver.stop();
    }
  });
});
