import { UnitOfWork } from '../src/database/unit-of-work';
import { PlayTimeImport } from '../src/play-time/play-time.import';
import { PlayTimeReader } from '../src/play-time/play-time.reader';
import { PlayersService } from '../src/players/players.service';
import { expectError, HttpResult, newPlayer, TestApp } from './support/test-app';

interface Session {
  id: string;
  uuid: string;
  mcid: string;
  startedAt: string;
  lastActiveAt?: string;
  endedAt?: string;
}

// jao3 ends at midnight 2026-01-01 in Japan; jao4, the last era, holds everything else.
const ERAS = 'kassi,jao1,jao2,jao3=..2026-01-01T00:00:00+09:00,jao4';
const NOW = new Date('2026-11-25T12:00:00Z');

describe('play time (e2e)', () => {
  let app: TestApp;
  let reader: PlayTimeReader;
  let imports: PlayTimeImport;
  const asServer = { headers: {} as Record<string, string> };
  let sessionCounter = 0;

  const postSessions = (sessions: unknown[], extra: Record<string, unknown> = {}): Promise<HttpResult> => app.post('/game-server/sessions', { ...extra, sessions }, asServer);
  const postAway = (away: unknown[]): Promise<HttpResult> => app.post('/game-server/away-time', { away }, asServer);
  const session = (player: { uuid: string; mcid: string }, startedAt: string, rest: Partial<Session> = {}): Session => {
    sessionCounter += 1;
    return { id: `s-${sessionCounter}-${player.uuid.slice(0, 8)}`, ...player, startedAt, ...rest };
  };
  const inTransaction = <T>(work: Parameters<UnitOfWork['transaction']>[0] extends (tx: infer X) => Promise<unknown> ? (tx: X) => Promise<T> : never): Promise<T> =>
    app.app.get(UnitOfWork).transaction(work);
  const days = (uuid: string, now = NOW): Promise<Array<{ date: string; count: number }>> => reader.dailyOnline(uuid, now);
  const eras = async (uuid: string): Promise<Record<string, number>> => Object.fromEntries(await reader.eraTotals(uuid));

  beforeAll(async () => {
    app = await TestApp.start({ PLAYER_ERAS: ERAS, COMMUNITY_TIME_ZONE: 'Asia/Tokyo' });
    asServer.headers = { 'x-api-key': await app.createApiKey(['game-server']) };
    reader = app.app.get(PlayTimeReader);
    imports = app.app.get(PlayTimeImport);
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('credentials', () => {
    const player = newPlayer();
    const routes: Array<[string, unknown]> = [
      ['/game-server/sessions', { sessions: [{ id: 'x', ...player, startedAt: '2026-01-01T00:00:00Z' }] }],
      ['/game-server/away-time', { away: [{ id: 'x', ...player, seconds: 5, at: '2026-01-01T00:00:00Z' }] }],
    ];

    it.each(routes)('POST %s answers 401 without a key and 403 with an operator key', async (path, body) => {
      expectError(await app.post(path, body), 401, 'unauthorized');
      const operator = await app.createApiKey(['operator']);
      expectError(await app.post(path, body, { headers: { 'x-api-key': operator } }), 403, 'forbidden');
      expect(await app.app.get(PlayersService).findByUuid(player.uuid)).toBeNull();
    });
  });

  describe('a player without data', () => {
    it('reads as no days, no eras and no away time', async () => {
      const nobody = newPlayer();
      expect(await days(nobody.uuid)).toEqual([]);
      expect(await eras(nobody.uuid)).toEqual({});
      expect(await reader.awaySeconds(nobody.uuid)).toBe(0);
    });
  });

  describe('POST /game-server/sessions', () => {
    it('counts a session from join through activity to quit, split at midnight in Japan, and skips re-sends', async () => {
      const player = newPlayer();
      // 23:00 to 01:30 in Japan, 2026-11-20/21.
      const join = session(player, '2026-11-20T14:00:00Z');
      const first = await postSessions([join]);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ status: true, code: 200, version: 'test-build', accepted: 1, skipped: 0 });
      expect(await days(player.uuid)).toEqual([]);

      const activity = { ...join, lastActiveAt: '2026-11-20T15:30:00Z' };
      expect((await postSessions([activity])).body).toMatchObject({ accepted: 1, skipped: 0 });
      expect((await postSessions([join, activity])).body).toMatchObject({ accepted: 0, skipped: 2 });
      expect(await days(player.uuid)).toEqual([
        { date: '2026-11-20', count: 3600 },
        { date: '2026-11-21', count: 1800 },
      ]);

      const quit = { ...activity, endedAt: '2026-11-20T16:30:00.999Z' };
      expect((await postSessions([quit])).body).toMatchObject({ accepted: 1, skipped: 0 });
      expect((await postSessions([quit])).body).toMatchObject({ accepted: 0, skipped: 1 });
      // An ended session changes no more.
      expect((await postSessions([{ ...join, lastActiveAt: '2026-11-20T18:00:00Z' }])).body).toMatchObject({ accepted: 0, skipped: 1 });
      expect(await days(player.uuid)).toEqual([
        { date: '2026-11-20', count: 3600 },
        { date: '2026-11-21', count: 5400 },
      ]);
      expect(await eras(player.uuid)).toEqual({ jao4: 9000 });
    });

    it('gives a player not seen before a bare row (no first login), findable by uuid', async () => {
      const player = newPlayer();
      const upper = { ...player, uuid: player.uuid.toUpperCase() };
      expect((await postSessions([session(upper, '2026-11-01T00:00:00Z', { endedAt: '2026-11-01T00:10:00Z' })])).body).toMatchObject({ accepted: 1 });
      expect(await app.app.get(PlayersService).findByUuid(player.uuid)).toMatchObject({ uuid: player.uuid, mcid: player.mcid, firstLogin: null });
      expectError(await app.get(`/users/${player.uuid}`), 404, 'not_found');
      expect(await days(upper.uuid)).toEqual([{ date: '2026-11-01', count: 600 }]);
    });

    it('splits play across an era edge into both eras', async () => {
      const player = newPlayer();
      // 23:00 on 2025-12-31 to 01:00 on 2026-01-01 in Japan.
      await postSessions([session(player, '2025-12-31T14:00:00Z', { endedAt: '2025-12-31T16:00:00Z' })]);
      expect(await eras(player.uuid)).toEqual({ jao3: 3600, jao4: 3600 });
      expect(await days(player.uuid, new Date('2026-06-01T00:00:00Z'))).toEqual([
        { date: '2025-12-31', count: 3600 },
        { date: '2026-01-01', count: 3600 },
      ]);
    });

    it('ends a crashed session at its last activity when the server reports its restart', async () => {
      const player = newPlayer();
      const crashed = session(player, '2026-11-10T01:00:00Z', { lastActiveAt: '2026-11-10T01:20:00Z' });
      await postSessions([crashed], { server: 'survival-1' });
      // Another server's restart does not touch it.
      expect((await postSessions([session(newPlayer(), '2026-11-10T03:00:00Z')], { server: 'lobby', serverStartedAt: '2026-11-10T02:59:00Z' })).status).toBe(200);
      expect((await postSessions([{ ...crashed, lastActiveAt: '2026-11-10T01:30:00Z' }], { server: 'survival-1' })).body).toMatchObject({ accepted: 1 });

      const restart = await postSessions([session(newPlayer(), '2026-11-10T03:00:00Z')], { server: 'survival-1', serverStartedAt: '2026-11-10T02:59:00Z' });
      expect(restart.body).toMatchObject({ accepted: 1, skipped: 0 });
      // Ended at 01:30: a late report adds nothing.
      expect((await postSessions([{ ...crashed, lastActiveAt: '2026-11-10T04:00:00Z' }], { server: 'survival-1' })).body).toMatchObject({ accepted: 0, skipped: 1 });
      expect(await days(player.uuid)).toEqual([{ date: '2026-11-10', count: 1800 }]);
    });

    it("ends a player's older open session when a later one starts", async () => {
      const player = newPlayer();
      const older = session(player, '2026-11-12T00:00:00Z', { lastActiveAt: '2026-11-12T00:05:00Z' });
      await postSessions([older]);
      await postSessions([session(player, '2026-11-12T02:00:00Z', { endedAt: '2026-11-12T02:10:00Z' })]);
      expect((await postSessions([{ ...older, endedAt: '2026-11-12T01:00:00Z' }])).body).toMatchObject({ accepted: 0, skipped: 1 });
      expect(await days(player.uuid)).toEqual([{ date: '2026-11-12', count: 900 }]);
    });

    it('caps a day at 86400 seconds however sessions overlap', async () => {
      const player = newPlayer();
      const wholeDay = { startedAt: '2026-11-14T15:00:00Z', endedAt: '2026-11-15T15:00:00Z' };
      await postSessions([session(player, wholeDay.startedAt, { endedAt: wholeDay.endedAt }), session(player, '2026-11-15T00:00:00Z', { endedAt: '2026-11-15T01:00:00Z' })]);
      expect(await days(player.uuid)).toEqual([{ date: '2026-11-15', count: 86400 }]);
      // The era total is not capped.
      expect(await eras(player.uuid)).toEqual({ jao4: 90000 });
    });

    it('shows only the last 366 days, today included', async () => {
      const player = newPlayer();
      await postSessions([
        session(player, '2025-11-24T14:00:00Z', { endedAt: '2025-11-24T14:00:10Z' }), // 2025-11-24 in Japan: 367 days back
        session(player, '2025-11-25T00:00:00Z', { endedAt: '2025-11-25T00:00:20Z' }), // 2025-11-25: the oldest shown
        session(player, '2026-11-25T12:00:00Z', { endedAt: '2026-11-25T12:00:30Z' }), // 2026-11-25 21:00 in Japan: today
      ]);
      expect(await days(player.uuid)).toEqual([
        { date: '2025-11-25', count: 20 },
        { date: '2026-11-25', count: 30 },
      ]);
    });

    it('refuses a batch with a bad element, naming it, and stores nothing', async () => {
      const player = newPlayer();
      const good = session(player, '2026-11-01T00:00:00Z', { endedAt: '2026-11-01T01:00:00Z' });
      const cases: Array<[unknown, string]> = [
        [{ ...good, id: 'y', startedAt: '2026-11-01T00:00:00' }, 'sessions.1.startedAt'],
        [{ ...good, id: '' }, 'sessions.1.id'],
        [{ ...good, id: 'x'.repeat(65) }, 'sessions.1.id'],
        [{ ...good, id: 'tab\there' }, 'sessions.1.id'],
        [{ ...good, id: 'y', uuid: 'nope' }, 'sessions.1.uuid'],
        [{ ...good, id: 'y', mcid: undefined }, 'sessions.1.mcid'],
        [{ ...good, id: 'y', endedAt: '2026-10-31T23:59:59Z' }, 'sessions.1.endedAt'],
        [{ ...good, id: 'y', lastActiveAt: '2026-11-01T00:30:00Z', endedAt: '2026-11-01T00:20:00Z' }, 'sessions.1.endedAt'],
        [{ ...good, id: 'y', endedAt: '2026-12-03T00:00:00Z' }, 'sessions.1.endedAt'],
        [{ ...good, id: 'y', startedAt: '2099-01-01T00:00:00Z', endedAt: undefined }, 'sessions.1.startedAt'],
        [[], 'sessions.1'],
      ];
      for (const [bad, field] of cases) {
        const result = expectError(await postSessions([good, bad]), 400, 'invalid_request');
        expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      expectError(await postSessions([]), 400, 'invalid_request');
      expectError(await postSessions([good], { serverStartedAt: 'yesterday' }), 400, 'invalid_request');
      expect(await days(player.uuid)).toEqual([]);
      expect(await app.app.get(PlayersService).findByUuid(player.uuid)).toBeNull();
    });

    it('refuses a session id already naming another player or start, with 409 naming the field', async () => {
      const player = newPlayer();
      const first = session(player, '2026-11-02T00:00:00Z', { endedAt: '2026-11-02T00:10:00Z' });
      await postSessions([first]);
      const other = newPlayer();
      const clash = expectError(await postSessions([session(other, '2026-11-02T00:00:00Z'), { ...first, ...other }]), 409, 'conflict');
      expect(clash.body.details).toEqual([expect.objectContaining({ field: 'sessions.1.uuid' })]);
      const moved = expectError(await postSessions([{ ...first, startedAt: '2026-11-02T00:00:01Z' }]), 409, 'conflict');
      expect(moved.body.details).toEqual([expect.objectContaining({ field: 'sessions.0.startedAt' })]);
      expect(await days(other.uuid)).toEqual([]);
    });

    it('counts concurrent reports of one session once', async () => {
      const player = newPlayer();
      const join = session(player, '2026-11-03T00:00:00Z');
      const reports = Array.from({ length: 6 }, (_, index) => ({ ...join, lastActiveAt: `2026-11-03T00:0${index}:00Z` }));
      const results = await Promise.all(reports.map((report) => postSessions([report])));
      expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(results.reduce((sum, result) => sum + (result.body.accepted as number), 0)).toBeGreaterThanOrEqual(1);
      expect(await days(player.uuid)).toEqual([{ date: '2026-11-03', count: 300 }]);
      expect(await eras(player.uuid)).toEqual({ jao4: 300 });
    });

    it('stores a session sent by concurrent batches once', async () => {
      const player = newPlayer();
      const whole = session(player, '2026-11-08T00:00:00Z', { endedAt: '2026-11-08T00:02:00Z' });
      const results = await Promise.all(Array.from({ length: 5 }, () => postSessions([whole])));
      expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200]);
      expect(results.map((result) => result.body.accepted as number).sort()).toEqual([0, 0, 0, 0, 1]);
      expect(await days(player.uuid)).toEqual([{ date: '2026-11-08', count: 120 }]);
    });
  });

  describe('POST /game-server/away-time', () => {
    it('adds each report once to the total', async () => {
      const player = newPlayer();
      const away = [
        { id: 'a1', ...player, seconds: 600, at: '2026-11-20T10:00:00Z' },
        { id: 'a2', ...player, seconds: 30, at: '2026-11-20T11:00:00Z' },
        { id: 'a1', ...player, seconds: 600, at: '2026-11-20T10:00:00Z' },
      ];
      expect((await postAway(away)).body).toEqual({ status: true, code: 200, version: 'test-build', accepted: 2, skipped: 1 });
      expect((await postAway(away)).body).toMatchObject({ accepted: 0, skipped: 3 });
      expect(await reader.awaySeconds(player.uuid)).toBe(630);
      expect(await app.app.get(PlayersService).findByUuid(player.uuid)).toMatchObject({ mcid: player.mcid, firstLogin: null });
    });

    it('refuses a bad element, naming it', async () => {
      const player = newPlayer();
      for (const [bad, field] of [
        [{ seconds: 0 }, 'away.1.seconds'],
        [{ seconds: 1.5 }, 'away.1.seconds'],
        [{ at: null }, 'away.1.at'],
        [{ id: 7 }, 'away.1.id'],
      ] as Array<[Record<string, unknown>, string]>) {
        const result = expectError(await postAway([{ id: 'ok', ...player, seconds: 1, at: '2026-11-20T10:00:00Z' }, { id: 'b', ...player, seconds: 1, at: '2026-11-20T10:00:00Z', ...bad }]), 400, 'invalid_request');
        expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      expect(await reader.awaySeconds(player.uuid)).toBe(0);
    });
  });

  describe('the import API', () => {
    it('imports per-session rows into the heatmap only, once', async () => {
      const player = newPlayer();
      const rows = [
        { sourceId: 'daily-onlinetime:1', uuid: player.uuid.replace(/-/g, '').toUpperCase(), endedAt: new Date('2026-11-04T15:30:00Z'), seconds: 3600 },
        { sourceId: 'daily-onlinetime:2', uuid: player.uuid, endedAt: new Date('2026-11-05T00:00:00Z'), seconds: 60 },
        { sourceId: 'daily-onlinetime:3', uuid: 'not a uuid', endedAt: new Date('2026-11-05T00:00:00Z'), seconds: 60 },
        { sourceId: 'daily-onlinetime:4', uuid: player.uuid, endedAt: new Date('2026-11-05T00:00:00Z'), seconds: -1 },
      ];
      const first = await inTransaction((tx) => imports.importSessionsIn(tx, rows));
      expect(first).toEqual({ accepted: 2, skipped: 0, refused: [expect.objectContaining({ sourceId: 'daily-onlinetime:3' }), expect.objectContaining({ sourceId: 'daily-onlinetime:4' })] });
      expect(await inTransaction((tx) => imports.importSessionsIn(tx, rows.slice(0, 2)))).toEqual({ accepted: 0, skipped: 2, refused: [] });
      // 23:30 on the 4th to 00:30 on the 5th in Japan, and one minute on the 5th.
      expect(await days(player.uuid)).toEqual([
        { date: '2026-11-04', count: 1800 },
        { date: '2026-11-05', count: 1860 },
      ]);
      expect(await eras(player.uuid)).toEqual({});
    });

    it("imports era totals into the last era's imported part, replaced (not added) on a rerun, beside recorded sessions", async () => {
      const player = newPlayer();
      await postSessions([session(player, '2026-11-06T00:00:00Z', { endedAt: '2026-11-06T00:01:40Z' })]);
      expect(await inTransaction((tx) => imports.importEraTotalsIn(tx, [{ sourceId: `onlinetime:${player.uuid}`, uuid: player.uuid, seconds: 5000 }]))).toEqual({
        accepted: 1,
        skipped: 0,
        refused: [],
      });
      expect(await eras(player.uuid)).toEqual({ jao4: 5100 });
      expect(await inTransaction((tx) => imports.importEraTotalsIn(tx, [{ sourceId: `onlinetime:${player.uuid}`, uuid: player.uuid, seconds: 5000 }]))).toEqual({
        accepted: 0,
        skipped: 1,
        refused: [],
      });
      expect(await inTransaction((tx) => imports.importEraTotalsIn(tx, [{ sourceId: `onlinetime:${player.uuid}`, uuid: player.uuid, seconds: 7000 }]))).toMatchObject({ accepted: 1 });
      expect(await eras(player.uuid)).toEqual({ jao4: 7100 });

      const idle = newPlayer();
      await inTransaction((tx) => imports.importEraTotalsIn(tx, [{ sourceId: `onlinetime:${idle.uuid}`, uuid: idle.uuid, seconds: 0 }]));
      expect(await eras(idle.uuid)).toEqual({ jao4: 0 });
    });

    it('imports away rows once each', async () => {
      const player = newPlayer();
      const rows = [
        { sourceId: 'afktime:1', uuid: player.uuid, seconds: 100, at: new Date('2026-11-01T00:00:00Z') },
        { sourceId: 'afktime:2', uuid: player.uuid, seconds: 20, at: null },
      ];
      expect(await inTransaction((tx) => imports.importAwayIn(tx, rows))).toEqual({ accepted: 2, skipped: 0, refused: [] });
      expect(await inTransaction((tx) => imports.importAwayIn(tx, rows))).toEqual({ accepted: 0, skipped: 2, refused: [] });
      await postAway([{ id: 'afktime:1', ...player, seconds: 5, at: '2026-11-20T10:00:00Z' }]);
      expect(await reader.awaySeconds(player.uuid)).toBe(125);
    });
  });
});
