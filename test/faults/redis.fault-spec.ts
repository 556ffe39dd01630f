import { randomInt } from 'node:crypto';
import Redis from 'ioredis';
import { AppConfig } from '../../src/config/app-config';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { EventsService } from '../../src/events/events.service';
import { freePort } from '../../scripts/free-port';
import { TcpProxy } from '../support/tcp-proxy';
import { expectError, newPlayer, registerClubUser, TestApp, type ClubUser } from '../support/test-app';
import { duringFault, FAULTS, FaultTable, timeToRecover } from './fault-table';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const COMMAND_TIMEOUT_MS = 300;
/** A sign-in makes a few Redis calls in a row, each cut at the command timeout; plus hashing and a loaded machine. */
const BOUND_MS = 8 * COMMAND_TIMEOUT_MS + 3000;

/** A random client address per run, so parallel runs sharing one Redis never share counters. */
function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/**
 * Redis behind a TCP proxy (docs/reliability.md, "Outgoing calls, Redis and the server's
 * timeouts"): the rate limits fall back to this process's memory, so requests and sign-ins are
 * served within the deadline whatever Redis does, and the counters go back to Redis by
 * themselves when it answers again.
 */
describe('faults: Redis (rate limits and known addresses)', () => {
  const table = new FaultTable();
  const ip = randomAddress();
  let redis: Redis;
  let proxy: TcpProxy;
  let app: TestApp;
  let user: ClubUser;
  let latestToken = '';

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    const target = new URL(REDIS_URL);
    proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    const proxyPort = await proxy.start();
    app = await TestApp.start({
      RATE_LIMIT_ENABLED: 'true',
      TRUST_PROXY: '127.0.0.1',
      REDIS_URL: `redis://127.0.0.1:${proxyPort}`,
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
      REDIS_CONNECT_TIMEOUT_MS: '500',
    });
    user = await registerClubUser(app, await app.createApiKey(['game-server']));
  });

  afterAll(async () => {
    table.print('Fault table: Redis (GET /health and a sign-in, from one address)');
    const keys = await redis.keys(`rl:*${ip}*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    await redis.quit();
    await app?.stop();
    await proxy?.stop();
  });

  // The per-address counter is a hash of buckets (a sliding window): its sum is the count.
  const counted = async (): Promise<number> => Object.values(await redis.hgetall(`rl:req:ip:${ip}`)).reduce((sum, count) => sum + Number(count), 0);

  async function serve(): Promise<number[]> {
    const health = await app.get('/health', { headers: { 'x-forwarded-for': ip } });
    expect(health.headers.get('ratelimit-limit')).toBe('600');
    const signIn = await app.post<{ usertoken?: string }>('/club/token', { username: user.mcid, password: 'club-password-1', recaptcha: 'pass' }, { headers: { 'x-forwarded-for': ip } });
    if (signIn.status === 200 && signIn.body.usertoken) {
      latestToken = signIn.body.usertoken;
    }
    return [health.status, signIn.status];
  }

  it.each(FAULTS)('%s: served from memory within the deadline, nothing lost, counts in Redis again by itself', async (fault) => {
    const results = await duringFault(proxy, fault, COMMAND_TIMEOUT_MS + 500, serve);
    for (const { value, ms } of results) {
      expect(ms).toBeLessThan(BOUND_MS);
      expect(value).toEqual([200, 200]);
    }
    const writesLost = (await app.get('/club/@me', { headers: { authorization: `Bearer ${latestToken}` } })).status === 200 ? 0 : 1;
    expect(writesLost).toBe(0);
    const recoveryMs = await timeToRecover(async () => {
      const before = await counted();
      await app.get('/health', { headers: { 'x-forwarded-for': ip } });
      return (await counted()) === before + 1;
    });
    table.add({ dependency: 'Redis', fault, answer: '200 (memory)', slowestMs: Math.max(...results.map(({ ms }) => ms)), boundMs: BOUND_MS, writesLost, recoveryMs });
  });

  it('falls back to memory at once when Redis is unreachable from the start, and still limits', async () => {
    const unreachable = await TestApp.start(
      { RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', REDIS_URL: `redis://127.0.0.1:${await freePort()}`, RECAPTCHA_VERIFY_URL: app.app.get(AppConfig).RECAPTCHA_VERIFY_URL },
      { database: app.database, captcha: app.captcha },
    );
    const from = randomAddress();
    try {
      const started = Date.now();
      const health = await unreachable.get('/health', { headers: { 'x-forwarded-for': from } });
      expect(health.status).toBe(200);
      expect(health.headers.get('ratelimit-remaining')).toBe('599');
      expect(Date.now() - started).toBeLessThan(1000);
      const ghost = newPlayer().mcid;
      const signIn = () => unreachable.post('/club/token', { username: ghost, password: 'wrong-password', recaptcha: 'pass' }, { headers: { 'x-forwarded-for': from } });
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expectError(await signIn(), 401, 'unauthorized');
      }
      expectError(await signIn(), 429, 'rate_limited');
    } finally {
      await unreachable.stop({ keepDatabase: true, keepCaptcha: true });
    }
  });
});

/** A long-poll may answer this late while Redis is faulted: the 1 s safety poll plus a loaded machine. */
const WAKE_BOUND_MS = 3500;

/**
 * The event notifications through Redis (pub/sub between instances) behind the same proxy: an
 * event committed on another instance still reaches a long-poll on this one within the
 * deadline (the safety poll covers a stalled or lost subscriber), and none is missed.
 */
describe('faults: Redis (event notifications between instances)', () => {
  const table = new FaultTable();
  let proxy: TcpProxy;
  let listening: TestApp;
  let writing: TestApp;
  let operator: { 'x-api-key': string };
  const recorded: number[] = [];

  beforeAll(async () => {
    const target = new URL(REDIS_URL);
    proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    const proxyPort = await proxy.start();
    listening = await TestApp.start({ REDIS_URL: `redis://127.0.0.1:${proxyPort}`, REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS), REDIS_CONNECT_TIMEOUT_MS: '500' });
    writing = await TestApp.start({ REDIS_URL, RECAPTCHA_VERIFY_URL: listening.app.get(AppConfig).RECAPTCHA_VERIFY_URL }, { database: listening.database, captcha: listening.captcha });
    operator = { 'x-api-key': await listening.createApiKey(['operator']) };
  });

  afterAll(async () => {
    table.print('Fault table: Redis (an event committed on another instance, seen by a long-poll here)');
    await writing?.stop({ keepDatabase: true, keepCaptcha: true });
    await listening?.stop();
    await proxy?.stop();
  });

  /** Starts a long-poll on the listening instance, then commits an event on the other; the poll's answer time. */
  async function wakeUp(): Promise<number> {
    const after = recorded.length > 0 ? recorded[recorded.length - 1] : 0;
    const poll = listening.get<{ data: Array<{ id: number }> }>('/events', { query: { after, wait: 10 }, headers: operator });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const id = await writing.app.get(UnitOfWork).transaction((tx) => writing.app.get(EventsService).record(tx, 'banlist.sync.finished', { summary: { fault: true } }));
    recorded.push(id);
    const result = await poll;
    expect(result.status).toBe(200);
    expect(result.body.data.map((event) => event.id)).toContain(id);
    return Date.now() - started;
  }

  it.each(FAULTS)('%s: the long-poll hears of the event within the deadline, none is missed', async (fault) => {
    const results = await duringFault(proxy, fault, COMMAND_TIMEOUT_MS + 500, wakeUp);
    for (const { value } of results) {
      expect(value).toBeLessThan(WAKE_BOUND_MS);
    }
    const feed = await listening.get<{ data: Array<{ id: number }> }>('/events', { query: { after: 0, limit: 500 }, headers: operator });
    const seen = new Set(feed.body.data.map((event) => event.id));
    const writesLost = recorded.filter((id) => !seen.has(id)).length;
    expect(writesLost).toBe(0);
    // Back on Redis: a wake-up well under the 1 s safety poll.
    const recoveryMs = await timeToRecover(async () => (await wakeUp()) < 400);
    table.add({ dependency: 'Redis (events)', fault, answer: '200 (event)', slowestMs: Math.max(...results.map(({ value }) => value)), boundMs: WAKE_BOUND_MS, writesLost, recoveryMs });
  });
});
