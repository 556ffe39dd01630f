import { Command } from 'commander';
import { registerBanlistCommands } from '../src/cli/commands/banlist.commands';
import { CliOutput } from '../src/cli/cli-output';
import { Player } from '../src/players/player.entity';
import { FakeBanlist, upstreamPlayer } from './support/fake-banlist';
import { expectError, newPlayer, TestApp } from './support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A player known to the service (has a login record), inserted directly. */
async function knownPlayer(app: TestApp, options: { loggedIn?: boolean } = {}): Promise<{ uuid: string; mcid: string }> {
  const player = newPlayer();
  const at = new Date('2024-01-01T00:00:00.000Z');
  await app.dataSource.getRepository(Player).insert({
    uuid: player.uuid,
    mcid: player.mcid,
    mcidKey: player.mcid.toLowerCase(),
    chatid: null,
    permission: null,
    firstLogin: options.loggedIn === false ? null : at,
    lastLogin: options.loggedIn === false ? null : at,
    createdAt: at,
  });
  return player;
}

describe('ban-list mirror (e2e)', () => {
  const upstream = new FakeBanlist();
  let app: TestApp;
  let operator: { 'x-api-key': string };
  let gameServer: { 'x-api-key': string };

  beforeAll(async () => {
    const url = await upstream.start();
    app = await TestApp.start({ BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: '1000', BANLIST_SYNC_CONCURRENCY: '4' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    gameServer = { 'x-api-key': await app.createApiKey(['game-server']) };
  });

  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  const sync = () => app.post('/users/banlist/sync', undefined, { headers: operator });

  it('asks for an operator key to sync and to read the status', async () => {
    expectError(await app.post('/users/banlist/sync'), 401, 'unauthorized');
    expectError(await app.post('/users/banlist/sync', undefined, { headers: gameServer }), 403, 'forbidden');
    expectError(await app.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': 'not-a-key' } }), 401, 'unauthorized');
    expectError(await app.get('/users/banlist/sync/status'), 401, 'unauthorized');
    expectError(await app.get('/users/banlist/sync/status', { headers: gameServer }), 403, 'forbidden');
  });

  it('validates lookups and answers 404 for what was never synced', async () => {
    const player = await knownPlayer(app);
    expectError(await app.get('/users/banlist'), 400, 'invalid_request');
    expectError(await app.get('/users/banlist', { query: { uuid: 'nope' } }), 400, 'invalid_request');
    expectError(await app.get('/users/banlist/not-a-uuid'), 400, 'invalid_request');
    expectError(await app.get('/users/banlist', { query: { uuid: player.uuid } }), 404, 'not_found');
    expectError(await app.get(`/users/banlist/${player.uuid}`), 404, 'not_found');
    for (const bad of ['0', '-3', 'abc', '1.5', '99999999999999999999']) {
      expectError(await app.get(`/users/banlist/ban/${bad}`), 400, 'invalid_request');
    }
    expectError(await app.get('/users/banlist/ban/987654321'), 404, 'not_found');
  });

  describe('a run against an upstream with faults', () => {
    const players: Record<string, { uuid: string; mcid: string }> = {};
    let notKnown: { uuid: string; mcid: string };
    let first: Record<string, unknown>;
    let second: Record<string, unknown>;

    beforeAll(async () => {
      for (const name of ['clean', 'banned', 'lifting', 'flaky', 'brokenLater', 'down', 'hang', 'notJson', 'badShape', 'limitedOnce', 'limitedTwice']) {
        players[name] = await knownPlayer(app);
      }
      notKnown = await knownPlayer(app, { loggedIn: false });
      upstream.script(notKnown.uuid, { status: 200, body: upstreamPlayer(notKnown.uuid, 'Ghost', 1, [{ banId: 1 }]) });

      const p = players;
      upstream.script(p.clean.uuid, { status: 404 });
      upstream.script(p.banned.uuid, {
        status: 200,
        body: upstreamPlayer(p.banned.uuid, 'UpstreamName', 7.5, [
          { banId: 9001, type: 'Global', reason: 'x-ray', lostRep: 2.5 },
          { banId: 9002, type: 'local', server: null, bannedBy: { name: null, uuid: 'abcdefabcdefabcdefabcdefabcdefab' } },
          { banId: 9003, type: 'local', bannedBy: null },
        ]),
      });
      upstream.script(
        p.lifting.uuid,
        { status: 200, body: upstreamPlayer(p.lifting.uuid, 'Lifter', 6, [{ banId: 9101 }, { banId: 9102, type: 'local' }]) },
        { status: 200, body: upstreamPlayer(p.lifting.uuid, 'Lifter', 8, [{ banId: 9101 }]) },
      );
      // First run: one 500 then success (a retry); second run: always 500.
      upstream.script(
        p.flaky.uuid,
        { status: 500 },
        { status: 200, body: upstreamPlayer(p.flaky.uuid, 'Flaky', 9, [{ banId: 9201 }]) },
        { status: 500 },
      );
      upstream.script(
        p.brokenLater.uuid,
        { status: 200, body: upstreamPlayer(p.brokenLater.uuid, 'Broken', 4, [{ banId: 9301 }]) },
        { status: 200, body: { ...upstreamPlayer(p.brokenLater.uuid, 'Broken', 3, []), reputation: 'three' } },
      );
      upstream.script(p.down.uuid, { status: 503 });
      // One attempt in each of the two runs below hangs past the timeout (a timeout is not
      // retried within a run); later runs get a 404.
      upstream.script(p.hang.uuid, { hang: true }, { hang: true }, { status: 404 });
      upstream.script(p.notJson.uuid, { raw: '{"playerId": 1, "bans": [' });
      upstream.script(p.badShape.uuid, { status: 200, body: upstreamPlayer(players.clean.uuid, 'Impostor', 10, []) });
      upstream.script(p.limitedOnce.uuid, { status: 429, retryAfter: '1' }, { status: 200, body: upstreamPlayer(p.limitedOnce.uuid, 'Patient', 10, []) });
      upstream.script(p.limitedTwice.uuid, { status: 429, retryAfter: '1' }, { status: 429, retryAfter: '1' }, { status: 200, body: upstreamPlayer(p.limitedTwice.uuid, 'Late', 10, []) });

      const result = await sync();
      expect(result.status).toBe(200);
      first = result.body;
    });

    it('returns the summary: every known player refreshed, faults counted as failed', () => {
      expect(first).toEqual({
        status: true,
        code: 200,
        version: 'test-build',
        players: expect.any(Number),
        updated: expect.any(Number),
        failed: 5,
        removedBans: 0,
        startedAt: expect.stringMatching(ISO),
        finishedAt: expect.stringMatching(ISO),
      });
      expect(first.players).toBe((first.updated as number) + (first.failed as number));
      // clean, banned, lifting, flaky, brokenLater, limitedOnce + the lookup test's player (404 = clean).
      expect(first.updated).toBe(7);
      expect(Date.parse(first.finishedAt as string)).toBeGreaterThanOrEqual(Date.parse(first.startedAt as string));
    });

    it('never asks about players without a login record', async () => {
      const known = await app.dataSource.getRepository(Player).count();
      expect(first.players).toBe(known - 1);
      expect(upstream.requestsFor(notKnown.uuid)).toHaveLength(0);
      expect(upstream.requestsFor(players.clean.uuid)).toHaveLength(1);
    });

    it('stores a clean record for an upstream 404', async () => {
      const result = await app.get('/users/banlist', { query: { uuid: players.clean.uuid.toUpperCase() } });
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual({
        uuid: players.clean.uuid,
        reputation: 10,
        global: 0,
        globalIds: [],
        local: 0,
        localIds: [],
        syncedAt: expect.stringMatching(ISO),
      });
    });

    it('maps the user data and ban records', async () => {
      const user = await app.get(`/users/banlist/${players.banned.uuid}`);
      expect(user.status).toBe(200);
      expect(user.body.data).toEqual({
        uuid: players.banned.uuid,
        reputation: 7.5,
        global: 1,
        globalIds: [9001],
        local: 2,
        localIds: [9002, 9003],
        syncedAt: expect.stringMatching(ISO),
      });
      const ban = await app.get('/users/banlist/ban/9001');
      expect(ban.status).toBe(200);
      expect(ban.body.data).toEqual({
        banId: 9001,
        uuid: players.banned.uuid,
        mcid: players.banned.mcid,
        bannedBy: 'Moderator',
        reason: 'x-ray',
        server: 'play.example.net',
        type: 'global',
        lostRep: 2.5,
        bannedAt: '2020-05-01T12:00:00.000Z',
        syncedAt: (user.body.data as { syncedAt: string }).syncedAt,
      });
      const byUuid = await app.get('/v1/users/banlist/ban/9002');
      expect(byUuid.body.data).toMatchObject({ bannedBy: 'abcdefabcdefabcdefabcdefabcdefab', server: null, type: 'local', lostRep: null });
      const nobody = await app.get('/users/banlist/ban/9003');
      expect(nobody.body.data).toMatchObject({ bannedBy: null, server: 'play.example.net' });
    });

    it('retries a 5xx and counts timeouts, 5xx, malformed bodies and a second 429 as failed, storing nothing', async () => {
      expect(upstream.requestsFor(players.flaky.uuid)).toHaveLength(2);
      expect((await app.get(`/users/banlist/${players.flaky.uuid}`)).status).toBe(200);
      expect(upstream.requestsFor(players.down.uuid)).toHaveLength(3);
      expect(upstream.requestsFor(players.hang.uuid)).toHaveLength(1);
      const failures = app.logLines.filter((line) => line.includes('Ban-list fetch failed'));
      expect(failures.find((line) => line.includes(players.hang.uuid))).toMatch(/timed out/);
      expect(failures.find((line) => line.includes(players.down.uuid))).toMatch(/answered 503/);
      expect(failures.find((line) => line.includes(players.notJson.uuid))).toMatch(/not JSON/);
      for (const name of ['down', 'hang', 'notJson', 'badShape', 'limitedTwice']) {
        expectError(await app.get(`/users/banlist/${players[name].uuid}`), 404, 'not_found');
      }
      expect(upstream.requestsFor(players.notJson.uuid)).toHaveLength(1);
      expect(upstream.requestsFor(players.limitedTwice.uuid)).toHaveLength(2);
    });

    it('waits Retry-After after a 429 and retries the player once', async () => {
      const [limited, retried] = upstream.requestsFor(players.limitedOnce.uuid);
      expect(retried.at - limited.at).toBeGreaterThanOrEqual(950);
      expect((await app.get(`/users/banlist/${players.limitedOnce.uuid}`)).status).toBe(200);
    });

    it('reports the last run, the schedule and the next scheduled run', async () => {
      const status = await app.get('/users/banlist/sync/status', { headers: operator });
      expect(status.status).toBe(200);
      const { players: count, updated, failed, removedBans, startedAt, finishedAt } = first;
      expect(status.body).toMatchObject({ lastRun: { players: count, updated, failed, removedBans, startedAt, finishedAt }, schedule: '0 0 */6 * * *', inProgress: false });
      const next = Date.parse(status.body.nextRunAt as string);
      expect(next).toBeGreaterThan(Date.now());
      expect(next - Date.now()).toBeLessThanOrEqual(6 * 3600 * 1000);
    });

    describe('a second run', () => {
      let before: Record<string, Record<string, unknown>>;

      beforeAll(async () => {
        before = {};
        for (const name of ['flaky', 'brokenLater', 'lifting']) {
          before[name] = (await app.get(`/users/banlist/${players[name].uuid}`)).body.data as Record<string, unknown>;
        }
        const result = await sync();
        expect(result.status).toBe(200);
        second = result.body;
      });

      it('removes lifted bans and counts them', async () => {
        expect(second.removedBans).toBe(1);
        const user = await app.get(`/users/banlist/${players.lifting.uuid}`);
        expect(user.body.data).toMatchObject({ reputation: 8, global: 1, globalIds: [9101], local: 0, localIds: [] });
        expect(Date.parse((user.body.data as { syncedAt: string }).syncedAt)).toBeGreaterThan(Date.parse(before.lifting.syncedAt as string));
        expectError(await app.get('/users/banlist/ban/9102'), 404, 'not_found');
        expect((await app.get('/users/banlist/ban/9101')).status).toBe(200);
      });

      it('keeps the previous data of a player whose fetch failed (5xx, malformed body)', async () => {
        // flaky (500 three times), brokenLater (malformed), down, hang, notJson, badShape.
        expect(second.failed).toBe(6);
        expect((await app.get(`/users/banlist/${players.flaky.uuid}`)).body.data).toEqual(before.flaky);
        expect((await app.get(`/users/banlist/${players.brokenLater.uuid}`)).body.data).toEqual(before.brokenLater);
        expect((await app.get('/users/banlist/ban/9301')).status).toBe(200);
      });

      it('stores the second run as the last one', async () => {
        const status = await app.get('/users/banlist/sync/status', { headers: operator });
        expect((status.body.lastRun as { startedAt: string }).startedAt).toBe(second.startedAt);
      });
    });
  });

  it('answers 409 to a sync requested while one runs', async () => {
    const slow = await knownPlayer(app);
    upstream.script(slow.uuid, { status: 200, body: upstreamPlayer(slow.uuid, 'Slow', 10, []), delayMs: 250 });
    const running = sync();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const statusDuring = await app.get('/users/banlist/sync/status', { headers: operator });
    expectError(await sync(), 409, 'conflict');
    expect(statusDuring.body.inProgress).toBe(true);
    expect((await running).status).toBe(200);
    expect((await sync()).status).toBe(200);
  });

  it('refreshes the players that exist for /users once the game server reports their logins', async () => {
    const fresh = newPlayer();
    const old = newPlayer();
    const logins = await app.post(
      '/game-server/logins',
      {
        logins: [
          { uuid: fresh.uuid, mcid: 'OldName', loggedInAt: '2024-01-01T00:00:00Z' },
          { uuid: fresh.uuid, mcid: fresh.mcid, loggedInAt: '2024-02-01T00:00:00Z' },
          // Before DATA_CUTOFF: does not make the player exist.
          { uuid: old.uuid, mcid: old.mcid, loggedInAt: '2018-01-01T00:00:00Z' },
        ],
      },
      { headers: gameServer },
    );
    expect(logins.status).toBe(200);
    upstream.script(fresh.uuid, { status: 200, body: upstreamPlayer(fresh.uuid, 'UpstreamOnly', 9, [{ banId: 9401 }]) });
    upstream.script(old.uuid, { status: 200, body: upstreamPlayer(old.uuid, 'Old', 9, [{ banId: 9402 }]) });
    expect((await sync()).status).toBe(200);
    expect((await app.get('/users/banlist/ban/9401')).body.data).toMatchObject({ uuid: fresh.uuid, mcid: fresh.mcid });
    expect(upstream.requestsFor(old.uuid)).toHaveLength(0);
    expectError(await app.get('/users/banlist/ban/9402'), 404, 'not_found');
  });

  it('runs from the command line and prints one JSON object with --json', async () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const program = new Command('cli').option('--json').exitOverride();
      registerBanlistCommands(program, (work) => work(app.app, new CliOutput(true)));
      await program.parseAsync(['node', 'cli', 'banlist:sync', '--json']);
    } finally {
      spy.mockRestore();
    }
    expect(written).toHaveLength(1);
    const summary = JSON.parse(written[0]);
    expect(summary).toEqual({
      players: expect.any(Number),
      updated: expect.any(Number),
      failed: expect.any(Number),
      removedBans: 0,
      startedAt: expect.stringMatching(ISO),
      finishedAt: expect.stringMatching(ISO),
    });
    expect(summary.players).toBe(summary.updated + summary.failed);
  });
});

/**
 * docs/game-server.md, Syncing: every answer of the upstream is bounded as it arrives. Past
 * 5,000,000 bytes (after decompression) the request is cut off, the whole body has the deadline,
 * and a redirect is not followed; the player counts as failed and keeps the data it had.
 * (The server's memory under a 400 MB body and a gigabyte bomb: test/faults/banlist.fault-spec.ts.)
 */
describe('ban-list upstream answers that are too big, too slow or redirected (e2e)', () => {
  const upstream = new FakeBanlist();
  let app: TestApp;
  let operator: { 'x-api-key': string };
  const players: Record<string, { uuid: string; mcid: string }> = {};
  let summary: Record<string, unknown>;

  const BAD = ['flood', 'declared', 'gzipBomb', 'deflateBomb', 'brBomb', 'drip', 'redirect', 'offsite'] as const;
  const GOOD = ['nearLimit', 'gzip', 'deflate', 'br'] as const;

  beforeAll(async () => {
    const url = await upstream.start();
    // Room for a loaded machine: the answer just under the limit must arrive whole within the deadline.
    app = await TestApp.start({ BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: '4000', BANLIST_SYNC_CONCURRENCY: '4' });
    operator = { 'x-api-key': await app.createApiKey(['operator']) };
    for (const name of [...BAD, ...GOOD]) {
      players[name] = await knownPlayer(app);
    }
    let banId = 95_000;
    const stored = (uuid: string) => ({ status: 200 as const, body: upstreamPlayer(uuid, 'Stored', 7, [{ banId: (banId += 1) }]) });
    const fresh = (uuid: string) => upstreamPlayer(uuid, 'Fresh', 3, []);
    const p = players;
    // First run: every player gets an ordinary answer (the data a failed fetch must keep).
    for (const name of BAD) {
      upstream.script(p[name].uuid, stored(p[name].uuid));
    }
    expect((await app.post('/users/banlist/sync', undefined, { headers: operator })).body).toMatchObject({ failed: 0 });
    upstream.script(p.flood.uuid, { flood: 100 * 1024 * 1024, body: fresh(p.flood.uuid) });
    upstream.script(p.declared.uuid, { flood: 400 * 1024 * 1024, body: fresh(p.declared.uuid), declareLength: true });
    upstream.script(p.gzipBomb.uuid, { bomb: 200 * 1024 * 1024, encoding: 'gzip', body: fresh(p.gzipBomb.uuid) });
    upstream.script(p.deflateBomb.uuid, { bomb: 20 * 1024 * 1024, encoding: 'deflate', body: fresh(p.deflateBomb.uuid) });
    upstream.script(p.brBomb.uuid, { bomb: 20 * 1024 * 1024, encoding: 'br', body: fresh(p.brBomb.uuid) });
    upstream.script(p.drip.uuid, { drip: 50 });
    upstream.script(p.redirect.uuid, { redirect: 302, location: `/player/${p.nearLimit.uuid.replace(/-/g, '')}?token=secret-in-path` });
    upstream.script(p.offsite.uuid, { redirect: 307, location: 'http://169.254.169.254/latest/meta-data/' });
    // Just under the limit, and small compressed bodies: read and stored.
    upstream.script(p.nearLimit.uuid, { flood: 4_990_000, body: fresh(p.nearLimit.uuid) });
    upstream.script(p.gzip.uuid, { encoded: 'gzip', body: fresh(p.gzip.uuid) });
    upstream.script(p.deflate.uuid, { encoded: 'deflate', body: fresh(p.deflate.uuid) });
    upstream.script(p.br.uuid, { encoded: 'br', body: fresh(p.br.uuid) });
    const requestsBefore = upstream.requestsFor(p.nearLimit.uuid).length;
    const result = await app.post('/users/banlist/sync', undefined, { headers: operator });
    expect(result.status).toBe(200);
    summary = result.body;
    // The redirect was not followed: nobody asked for its target.
    expect(upstream.requestsFor(p.nearLimit.uuid).length).toBe(requestsBefore + 1);
    expect(upstream.otherPaths).toEqual([]);
  });

  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  const failure = (name: string) => app.logLines.filter((line) => line.includes('Ban-list fetch failed') && line.includes(players[name].uuid)).pop() ?? '';

  it('counts each refused answer as failed, once (never retried), and reads the others', () => {
    expect(summary).toMatchObject({ players: BAD.length + GOOD.length, updated: GOOD.length, failed: BAD.length });
    for (const name of BAD) {
      expect(upstream.requestsFor(players[name].uuid)).toHaveLength(2);
    }
  });

  it('keeps the data of every player whose answer was refused', async () => {
    for (const name of BAD) {
      expect((await app.get(`/users/banlist/${players[name].uuid}`)).body.data).toMatchObject({ reputation: 7, global: 1 });
    }
    for (const name of GOOD) {
      expect((await app.get(`/users/banlist/${players[name].uuid}`)).body.data).toMatchObject({ reputation: 3, global: 0 });
    }
  });

  it('cuts off a body at the limit, before reading it when its declared length is over', () => {
    expect(failure('flood')).toContain('the body is over the limit of 5000000 bytes');
    expect(failure('declared')).toMatch(/the declared body \(\d+ bytes\) is over the limit of 5000000 bytes/);
    const sent = (name: string) => upstream.streamed.find((entry) => entry.uuid === players[name].uuid)!;
    // 100 MB and 400 MB offered; what got out is the limit plus the sockets' buffers.
    expect(sent('flood')).toMatchObject({ cutOff: true });
    expect(sent('flood').sentBytes).toBeLessThan(50 * 1024 * 1024);
    expect(sent('declared')).toMatchObject({ cutOff: true });
    expect(sent('declared').sentBytes).toBeLessThan(50 * 1024 * 1024);
  });

  it('bounds gzip, deflate and br bodies after decompression', () => {
    for (const name of ['gzipBomb', 'deflateBomb', 'brBomb']) {
      expect(failure(name)).toContain('the body is over the limit of 5000000 bytes');
    }
  });

  it('gives an endless body the deadline, counted as a timeout', () => {
    expect(failure('drip')).toContain('timed out after 4000 ms');
    expect(upstream.streamed.find((entry) => entry.uuid === players.drip.uuid)).toMatchObject({ cutOff: true });
  });

  it('does not follow a redirect, and logs only where it pointed (scheme and host)', () => {
    expect(failure('redirect')).toMatch(/upstream answered 302 redirecting to http:\/\/127\.0\.0\.1:\d+\/…; redirects are not followed/);
    expect(failure('offsite')).toContain('upstream answered 307 redirecting to http://169.254.169.254/…; redirects are not followed');
    expect(app.logLines.join('\n')).not.toContain('secret-in-path');
  });
});
