import { connect, type Socket } from 'node:net';
import { expectError, TestApp } from './support/test-app';

const REQUEST_TIMEOUT_MS = 1000;
const IDLE_TIMEOUT_MS = 3000;

/** Everything the server writes on a raw connection, and when it closed (ms after connecting). */
function rawConnection(baseUrl: string, send: string): Promise<{ text: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), hostname, () => socket.write(send));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
  });
}

/** docs/reliability.md, "Outgoing calls, Redis and the server's timeouts": the server's own limits. */
describe('the server’s request and idle-connection timeouts (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };

  beforeAll(async () => {
    app = await TestApp.start({ HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HTTP_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS), EVENTS_MAX_WAITERS: '2' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
  });

  afterAll(async () => {
    await app.stop();
  });

  it('answers 408 in the envelope to a client that trickles its request, and closes', async () => {
    const { text, closedAfterMs } = await rawConnection(app.baseUrl, 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"message_ja"');
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 4000);
  });

  it('closes a connection on which nothing is sent, with the same 408', async () => {
    const { text, closedAfterMs } = await rawConnection(app.baseUrl, '');
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 4000);
  });

  it('answers a long-poll longer than the idle timeout, empty, before the connection would be cut', async () => {
    const started = Date.now();
    const result = await app.get('/events', { query: { after: 1_000_000, wait: 10 }, headers: operator });
    const elapsed = Date.now() - started;
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ data: [], next: 1_000_000 });
    expect(elapsed).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS - 1000 - 50);
    expect(elapsed).toBeLessThan(IDLE_TIMEOUT_MS);
  });

  it('refuses a long-poll past EVENTS_MAX_WAITERS with 503 and Retry-After, and serves the waiting ones', async () => {
    const waiting = [1, 2].map(() => app.get('/events', { query: { after: 1_000_000, wait: 2 }, headers: operator }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await app.get('/events', { query: { after: 1_000_000, wait: 2 }, headers: operator });
    expectError(refused, 503, 'service_unavailable');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await Promise.all(waiting)).map((result) => result.status)).toEqual([200, 200]);
    // Without a wait, nobody queues: the feed still answers at once.
    expect((await app.get('/events', { query: { after: 0 }, headers: operator })).status).toBe(200);
  });
});
