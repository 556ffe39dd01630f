import { eventually, recordEvent } from './support/events';
import { BuiltServer, ServerProcess } from './support/server-process';
import { TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { sleep, WebhookReceiver } from './support/webhook-receiver';

interface Attempt {
  deliveryId: string;
  attempt: number;
  status: number | null;
}

/**
 * A crashed server leaves its webhook leases behind. A restart on the same host takes over the
 * ones whose process is gone at once; a live replica's lease is never taken.
 */
describe('webhook leases of a killed process (e2e)', () => {
  let build: BuiltServer;
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    build = BuiltServer.build();
    database = await createTestDatabase();
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      process.kill(-server.child.pid!, 'SIGKILL');
    }
    await receiver.stop();
    build.remove();
    await database.drop();
  });

  it('a restart delivers at once after the holder was killed; a live holder on the same host keeps its lease', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE: 'true' };
    // Set-up: a webhook with one event waiting, inactive so that nobody delivers it yet.
    const setup = await TestApp.start(env, { database });
    const operatorKey = await setup.createApiKey(['operator']);
    const operator = { 'x-api-key': operatorKey };
    const created = await setup.post<{ data: { id: number } }>('/webhooks', { url: receiver.url, events: ['*'] }, { headers: operator });
    const webhookId = created.body.data.id;
    await setup.request('PATCH', `/webhooks/${webhookId}`, { body: { active: false }, headers: operator });
    const eventId = await recordEvent(setup, 'city.changed', { request: null, city: { id: 5 } });
    await setup.stop({ keepDatabase: true });

    // A real server process takes the delivery and hangs on it (the receiver does not answer the first
    // request); with WEBHOOK_TIMEOUT_MS 60000 its lease runs for two minutes.
    receiver.answers = ['hang'];
    server = await build.start({ ...env, DATABASE_URL: database.url, RECAPTCHA_SECRET: 'lease-test-secret', APP_VERSION: 'lease-test', WEBHOOK_TIMEOUT_MS: '60000' });
    await server.ready();
    const activated = await fetch(`${server.base}/webhooks/${webhookId}`, { method: 'PATCH', headers: { ...operator, 'content-type': 'application/json' }, body: JSON.stringify({ active: true }) });
    expect(activated.status).toBe(200);
    const [first] = await receiver.waitFor(1);

    // Another instance on the same host, while the holder lives: the lease is left alone.
    const other = await TestApp.start(env, { database });
    try {
      await sleep(6000);
      expect(receiver.requests).toHaveLength(1);

      process.kill(-server.child.pid!, 'SIGKILL');
      const killedAt = Date.now();
      await server.exited;
      const [, second] = await receiver.waitFor(2, 30_000);
      const takeoverMs = second.at - killedAt;
      process.stdout.write(`delivery resumed ${takeoverMs} ms after the lease holder was killed (its lease had about 2 minutes left)\n`);
      // Before: the lease ran out first (WEBHOOK_TIMEOUT_MS + 60 s after it was taken).
      expect(takeoverMs).toBeLessThan(10_000);
      expect(JSON.parse(second.body)).toMatchObject({ id: eventId });
      expect(second.headers['x-community-delivery']).toBe(first.headers['x-community-delivery']);
      await eventually(async () => {
        const log = (await other.get<{ data: Attempt[] }>(`/webhooks/${webhookId}/deliveries`, { headers: operator })).body.data;
        expect(log.map((entry) => [entry.attempt, entry.status])).toEqual([[1, 200]]);
      });
    } finally {
      await other.stop({ keepDatabase: true });
    }
  });
});
