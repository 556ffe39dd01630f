import { UnitOfWork } from '../src/database/unit-of-work';
import { MiniGamesImport } from '../src/mini-games/mini-games.import';
import { MiniGamesReader } from '../src/mini-games/mini-games.reader';
import { PlayersService } from '../src/players/players.service';
import { expectError, HttpResult, newPlayer, TestApp } from './support/test-app';

const ids = { next: 0 };
const nextId = (): string => `pm-${Date.now().toString(36)}-${(ids.next += 1)}`;

describe('mini-game results (e2e)', () => {
  let app: TestApp;
  const gameServer = { headers: {} as Record<string, string> };
  const report = (results: unknown[]): Promise<HttpResult> => app.post('/game-server/mini-games/periodmatch', { results }, gameServer);
  const reader = (): MiniGamesReader => app.app.get(MiniGamesReader);
  /** Each test uses a category of its own, so places are not shared across tests. */
  let category = 1000;
  const result = (player: { uuid: string; mcid: string }, matchTime: number, success: number, failure: number, calcMatchTime: number, endTime: string) => ({
    id: nextId(),
    uuid: player.uuid,
    mcid: player.mcid,
    success,
    failure,
    matchTime,
    realMatchTime: calcMatchTime / 1000,
    calcMatchTime,
    startTime: new Date(new Date(endTime).getTime() - 10_000).toISOString(),
    endTime,
  });

  beforeAll(async () => {
    app = await TestApp.start();
    gameServer.headers = { 'x-api-key': await app.createApiKey(['game-server']) };
  });

  afterAll(async () => {
    await app.stop();
  });

  it('needs a game-server key', async () => {
    const body = { results: [result(newPlayer(), 10, 1, 0, 1000, '2026-01-01T00:00:00Z')] };
    expectError(await app.post('/game-server/mini-games/periodmatch', body), 401, 'unauthorized');
    expectError(await app.post('/game-server/mini-games/periodmatch', body, { headers: { 'x-api-key': await app.createApiKey(['operator']) } }), 403, 'forbidden');
  });

  it('a player with no results reads []', async () => {
    await expect(reader().recent(newPlayer().uuid)).resolves.toEqual([]);
  });

  it('stores results idempotently by id and reads the newest first with their place in the category, ties shared, no attempts and zero time last', async () => {
    const matchTime = (category += 1);
    const [alice, bob, carol] = [newPlayer(), newPlayer(), newPlayer()];
    const best = result(alice, matchTime, 4, 0, 2000, '2026-01-01T00:00:01Z'); // 8 / 2000
    const tie = result(bob, matchTime, 2, 0, 1000, '2026-01-01T00:00:02Z'); // 2 / 1000 = same
    const worse = result(alice, matchTime, 1, 3, 1000, '2026-01-01T00:00:03Z'); // negative
    const none = result(alice, matchTime, 0, 0, 1000, '2026-01-01T00:00:04Z');
    const zeroTime = result(carol, matchTime, 5, 0, 0, '2026-01-01T00:00:05Z');
    const otherCategory = result(alice, matchTime + 100_000, 1, 0, 1000, '2026-01-01T00:00:00Z');
    const batch = [best, tie, worse, none, zeroTime, otherCategory];
    expect((await report(batch)).body).toEqual({ status: true, code: 200, version: 'test-build', accepted: 6, skipped: 0 });
    expect((await report(batch)).body).toMatchObject({ accepted: 0, skipped: 6 });

    const read = await reader().recent(alice.uuid);
    expect(read.map((entry) => [entry.matchTime, entry.success, entry.failure, entry.rank])).toEqual([
      [matchTime, 0, 0, 4],
      [matchTime, 1, 3, 3],
      [matchTime, 4, 0, 1],
      [matchTime + 100_000, 1, 0, 1],
    ]);
    expect(read[2]).toEqual({
      id: expect.any(Number),
      mcid: alice.mcid,
      success: 4,
      failure: 0,
      matchTime,
      realMatchTime: 2,
      calcMatchTime: 2000,
      status: true,
      rank: 1,
      startTime: new Date('2025-12-31T23:59:51Z'),
      endTime: new Date('2026-01-01T00:00:01Z'),
    });
    expect((await reader().recent(bob.uuid))[0].rank).toBe(1);
    expect((await reader().recent(carol.uuid.toUpperCase()))[0].rank).toBe(4);
    // Known by uuid from now on, like a player with a user key.
    expect(await app.app.get(PlayersService).findByUuid(carol.uuid)).toMatchObject({ mcid: carol.mcid, firstLogin: null });
  });

  it('keeps places up to date as results arrive, and answers at most the limit (50 by default)', async () => {
    const matchTime = (category += 1);
    const player = newPlayer();
    const many = Array.from({ length: 55 }, (_, index) => result(player, matchTime, 1, 0, 1000 + index, `2026-02-01T00:${String(index).padStart(2, '0')}:00Z`));
    await report(many);
    const recent = await reader().recent(player.uuid);
    expect(recent).toHaveLength(50);
    expect(recent[0].endTime).toEqual(new Date('2026-02-01T00:54:00Z'));
    expect(recent[0].rank).toBe(55);
    expect(await reader().recent(player.uuid, 3)).toHaveLength(3);
    await report([result(newPlayer(), matchTime, 9, 0, 1, '2026-02-02T00:00:00Z')]);
    expect((await reader().recent(player.uuid, 1))[0].rank).toBe(56);
  });

  it.each([
    ['negative success', { success: -1 }, 'results.1.success'],
    ['a fractional failure', { failure: 1.5 }, 'results.1.failure'],
    ['a time as text', { calcMatchTime: '10' }, 'results.1.calcMatchTime'],
    ['a missing id', { id: undefined }, 'results.1.id'],
    ['an end without a zone', { endTime: '2026-01-01T00:00:00' }, 'results.1.endTime'],
  ])('refuses %s, naming the element, storing nothing', async (_label, change, field) => {
    const player = newPlayer();
    const response = await report([result(player, 10, 1, 0, 1000, '2026-01-01T00:00:00Z'), { ...result(player, 10, 1, 0, 1000, '2026-01-01T00:00:00Z'), ...change }]);
    expectError(response, 400, 'invalid_request');
    expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    await expect(reader().recent(player.uuid)).resolves.toEqual([]);
  });

  it('imports periodmatch2 rows idempotently by id, ranked with the reported ones', async () => {
    const matchTime = (category += 1);
    const player = newPlayer();
    const rows = [1, 2].map((n) => ({
      sourceId: String(n),
      uuid: player.uuid,
      mcid: player.mcid,
      success: n,
      failure: 0,
      matchTime,
      realMatchTime: 10,
      calcMatchTime: 1000,
      startTime: new Date('2021-05-01T00:00:00Z'),
      endTime: new Date(`2021-05-0${n}T00:00:10Z`),
    }));
    const run = () => app.app.get(UnitOfWork).transaction((tx) => app.app.get(MiniGamesImport).importPeriodmatchIn(tx, rows));
    await expect(run()).resolves.toEqual({ accepted: 2, skipped: 0 });
    await expect(run()).resolves.toEqual({ accepted: 0, skipped: 2 });
    // A game-server id equal to an imported row's id is another result.
    await report([{ ...result(player, matchTime, 3, 0, 1000, '2026-01-01T00:00:00Z'), id: '1' }]);
    expect((await reader().recent(player.uuid)).map((entry) => [entry.success, entry.rank, entry.status])).toEqual([
      [3, 1, true],
      [2, 2, true],
      [1, 3, true],
    ]);
  });
});
