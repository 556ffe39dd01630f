import { BanlistSyncRun } from '../src/banlist-sync/banlist-sync-run.entity';
import { BanlistSyncJob } from '../src/banlist-sync/banlist-sync.job';
import { SyncLease } from '../src/banlist-sync/sync-lease.entity';
import { Player } from '../src/players/player.entity';
import { FakeBanlist, upstreamPlayer } from './support/fake-banlist';
import { expectError, newPlayer, TestApp } from './support/test-app';

async function knownPlayer(app: TestApp): Promise<string> {
  const { uuid, mcid } = newPlayer();
  const at = new Date('2024-01-01T00:00:00.000Z');
  await app.dataSource.getRepository(Player).insert({ uuid, mcid, mcidKey: mcid.toLowerCase(), chatid: null, permission: null, firstLogin: at, lastLogin: at, createdAt: at });
  return uuid;
}

async function setLease(app: TestApp, holder: string | null, expiresAt: Date | null): Promise<void> {
  await app.dataSource.getRepository(SyncLease).update({ name: 'banlist-sync' }, { holder, expiresAt });
}

describe('ban-list sync across instances (e2e)', () => {
  const upstream = new FakeBanlist();
  let first: TestApp;
  let second: TestApp;
  let operatorKey: string;

  beforeAll(async () => {
    const url = await upstream.start();
    const env = { BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: '2000' };
    first = await TestApp.start(env);
    second = await TestApp.start(env, { database: first.database, captcha: first.captcha });
    operatorKey = await first.createApiKey(['operator']);
    for (let index = 0; index < 6; index += 1) {
      const uuid = await knownPlayer(first);
      upstream.script(uuid, { status: 200, body: upstreamPlayer(uuid, `Slow${index}`, 10, []), delayMs: 300 });
    }
  });

  afterAll(async () => {
    await second.stop({ keepDatabase: true, keepCaptcha: true });
    await first.stop();
    await upstream.stop();
  });

  const syncOn = (app: TestApp) => app.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': operatorKey } });

  it('runs exactly once when two instances are triggered at the same moment', async () => {
    const before = upstream.requests.length;
    const results = await Promise.all([syncOn(first), syncOn(second)]);
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = results.find((result) => result.status === 200)!;
    expectError(results.find((result) => result.status === 409)!, 409, 'conflict');
    expect(winner.body).toMatchObject({ players: 6, updated: 6, failed: 0 });
    // One run: each player fetched once.
    expect(upstream.requests.length - before).toBe(6);
  });

  it('shows the last run on every instance, and the lease free again', async () => {
    const [a, b] = await Promise.all(
      [first, second].map((app) => app.get('/users/banlist/sync/status', { headers: { 'x-api-key': operatorKey } })),
    );
    expect(a.body.lastRun).toEqual(b.body.lastRun);
    expect(a.body.inProgress).toBe(false);
  });

  it('refuses while another holder has an unexpired lease, and takes over one whose holder died', async () => {
    await setLease(first, 'other-host:1:alive', new Date(Date.now() + 60_000));
    expectError(await syncOn(second), 409, 'conflict');
    const status = await second.get('/users/banlist/sync/status', { headers: { 'x-api-key': operatorKey } });
    expect(status.body.inProgress).toBe(true);

    await setLease(first, 'other-host:1:dead', new Date(Date.now() - 1000));
    const taken = await syncOn(second);
    expect(taken.status).toBe(200);
    // Released at the end of the run.
    expect(await first.dataSource.getRepository(SyncLease).findOneBy({ name: 'banlist-sync' })).toEqual({ name: 'banlist-sync', holder: null, expiresAt: null });
  });

  it('runs on schedule through the job, and a tick that finds the lease taken only logs', async () => {
    const job = first.app.get(BanlistSyncJob);
    const runs = first.dataSource.getRepository(BanlistSyncRun);
    await job.runOnSchedule();
    expect(await runs.countBy({ triggeredBy: 'schedule' })).toBe(1);
    // Nest's Logger is process-wide: the instance started last receives every instance's lines.
    const logged = (text: string) => [...first.logLines, ...second.logLines].some((line) => line.includes(text));
    expect(logged('Ban-list sync finished')).toBe(true);

    await setLease(first, 'other-host:2:alive', new Date(Date.now() + 60_000));
    await job.runOnSchedule();
    expect(await runs.countBy({ triggeredBy: 'schedule' })).toBe(1);
    expect(logged('Scheduled ban-list sync skipped')).toBe(true);
    await setLease(first, null, null);
  });
});

describe('ban-list sync without an upstream (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start({ BANLIST_SOURCE_URL: '' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('says at start that the job is off and schedules nothing', async () => {
    expect(app.logLines.some((line) => line.includes('Ban-list sync is off: BANLIST_SOURCE_URL is not set'))).toBe(true);
    const operator = { 'x-api-key': await app.createApiKey(['operator']) };
    const status = await app.get('/users/banlist/sync/status', { headers: operator });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ lastRun: null, nextRunAt: null, schedule: null, inProgress: false });
    expectError(await app.post('/users/banlist/sync', undefined, { headers: operator }), 503, 'service_unavailable');
    expect(app.app.get(BanlistSyncJob)).toBeNull();
  });
});
