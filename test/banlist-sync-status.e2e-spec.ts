import { FakeBanlist } from './support/fake-banlist';
import { expectError, TestApp } from './support/test-app';

/**
 * The sync status says whether a sync can run at all (and why not) and lists the last runs, so
 * the console's ban-list page can say "sync is off" before anyone clicks (docs/console-and-maps.md).
 */
describe('ban-list sync status: off without an upstream (e2e)', () => {
  let app: TestApp;
  let operator: { 'x-api-key': string };

  beforeAll(async () => {
    app = await TestApp.start({ BANLIST_SOURCE_URL: '' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
  });

  afterAll(async () => {
    await app.stop();
  });

  it('says the sync is off and why, and a run is refused with 503', async () => {
    const status = await app.get('/users/banlist/sync/status', { headers: operator });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ enabled: false, offReason: 'no_source_url', schedule: null, nextRunAt: null, inProgress: false });
    expect(Array.isArray(status.body.recentRuns)).toBe(true);
    expectError(await app.post('/users/banlist/sync', undefined, { headers: operator }), 503, 'service_unavailable');
  });
});

describe('ban-list sync status: on, with the last runs (e2e)', () => {
  const upstream = new FakeBanlist();
  let app: TestApp;
  let operator: { 'x-api-key': string };

  beforeAll(async () => {
    const url = await upstream.start();
    app = await TestApp.start({ BANLIST_SOURCE_URL: url });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
  });

  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  it('lists the finished runs newest first, the first of them as lastRun', async () => {
    const runs: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 2; i++) {
      const run = await app.post('/users/banlist/sync', undefined, { headers: operator });
      expect(run.status).toBe(200);
      runs.push(run.body);
    }
    const status = await app.get<{ enabled: boolean; offReason: string | null; lastRun: unknown; recentRuns: Array<Record<string, unknown>> }>('/users/banlist/sync/status', {
      headers: operator,
    });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ enabled: true, offReason: null });
    expect(status.body.recentRuns.length).toBeGreaterThanOrEqual(2);
    expect(status.body.recentRuns.length).toBeLessThanOrEqual(5);
    const [newest, previous] = status.body.recentRuns;
    expect(newest).toEqual({ players: runs[1].players, updated: runs[1].updated, failed: runs[1].failed, removedBans: runs[1].removedBans, startedAt: runs[1].startedAt, finishedAt: runs[1].finishedAt });
    expect(previous.finishedAt).toBe(runs[0].finishedAt);
    expect(status.body.lastRun).toEqual(newest);
  });
});
