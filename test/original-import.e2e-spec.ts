import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { freePort } from '../scripts/free-port';
import { square } from './support/cities';
import { TcpProxy } from './support/tcp-proxy';
import { createOriginalSource, originalCorners, OriginalSource } from './support/original-source';
import type { ImportReportJson as Report, TableCounts as Counts } from '../src/original-import/import-report';
import { runCli } from './support/run-cli';
import { newPlayer, TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';


/** A table's counts: every row read (= the source's COUNT(*)), skipped = excluded by a rule + problems. */
const counts = (read: number, imported: number, unchanged: number, excluded: number, problems: number): Counts => ({
  sourceRows: read,
  read,
  imported,
  unchanged,
  skipped: excluded + problems,
  excluded,
  problems,
});

const CUTOFF = '2018-03-20T00:00:00+09:00';

/** The original's JST wall clock as an ISO instant. */
const jst = (wallClock: string): string => new Date(`${wallClock.replace(' ', 'T')}+09:00`).toISOString();

describe('import:original (e2e: a MariaDB source in the original layout, the real CLI, checked over HTTP)', () => {
  let source: OriginalSource;
  let app: TestApp;
  let operatorKey: string;
  let gameServerKey: string;
  const asOperator = (): { headers: Record<string, string> } => ({ headers: { 'x-api-key': operatorKey } });

  const alice = newPlayer();
  const bob = newPlayer();
  const carol = newPlayer();
  const dave = newPlayer();
  const chatOld = '100000000000000001';
  const chatNew = '100000000000000002';
  const chatBob = '100000000000000003';

  const cli = async (...args: string[]): Promise<{ code: number; report: Report; stderr: string; stdout: string }> => {
    const run = await runCli(['import:original', ...args, '--json'], { DATABASE_URL: app.database.url, DATA_CUTOFF: CUTOFF, NODE_ENV: 'test', LOG_LEVEL: 'error' });
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    return { code: run.code, report: JSON.parse(lines[0]) as Report, stderr: run.stderr, stdout: run.stdout };
  };

  async function fillSource(target: OriginalSource): Promise<void> {
    const login = (player: string, uuid: string, date: string, success = 1, permission = 'Default'): Promise<void> =>
      target.query('INSERT INTO login (player, uuid, ip, host, countryName, city, permission, date, login_success) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        player,
        uuid,
        '203.0.113.9',
        'host.example',
        'Japan',
        'Tokyo',
        permission,
        date,
        success,
      ]);
    // alice: a login before the cutoff, one just after midnight JST, a rename; a refused login later under another name.
    await login('AliceOld', alice.uuid, '2018-03-19 23:59:59');
    await login('AliceOld', alice.uuid, '2019-01-01 00:30:00');
    await login('AliceNew', alice.uuid, '2020-06-01 21:00:00', 1, 'Verified');
    await login('Impostor', alice.uuid, '2021-01-01 12:00:00', 0);
    await login('BobName', bob.uuid, '2020-05-01 12:00:00');
    // carol only played before the cutoff: not a player here.
    await login('Carol', carol.uuid, '2017-12-31 23:00:00');
    await login('Dave', dave.uuid, '2022-02-02 02:02:02', 1, 'Admin');
    // Unreadable rows: a malformed uuid, a date that does not exist.
    await login('Broken', 'not-a-uuid', '2020-01-01 00:00:00');
    await login('Broken2', dave.uuid, '2021-02-30 10:00:00');

    const city = (id: number, fields: Record<string, unknown>): Promise<void> => {
      const row = { id, name: `Town ${id}`, namekana: 'たうん', regionname: null, player: 'AliceNew', uuid: alice.uuid, summary: 'A town', name_origin: null, reason: null, blocknum: '50', ...fields };
      const columns = Object.keys(row);
      return target.query(`INSERT INTO cities (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, Object.values(row));
    };
    // Corners as strings, a stale blocknum.
    await city(12, { name: 'Chuo', namekana: 'ちゅうおう', regionname: 'chuo', corners: originalCorners(0, 0, 10, true), created_at: '2019-04-01 00:10:00', updated_at: '2020-01-01 09:00:00' });
    // NULL owner: the newest login row named BobName; corners as numbers; a region name in upper case.
    await city(13, { name: 'Bob Town', namekana: 'ぼぶたうん', regionname: 'Bob_Town', player: 'BobName', uuid: null, corners: originalCorners(100, 0, 10, false), created_at: '2019-05-01 12:00:00' });
    await city(14, { name: 'Broken', namekana: 'ぶろーくん', corners: 'not json', created_at: '2019-05-01 12:00:00' });
    await city(15, { name: 'Orphan', namekana: 'おーふぁん', player: 'Nobody', uuid: null, corners: originalCorners(300, 0, 10, true), created_at: '2019-05-01 12:00:00' });
    // Breaks today's rules: overlaps city 13, and its region name is outside today's pattern.
    await city(20, { name: 'Overlap', namekana: 'おーばーらっぷ', regionname: 'まち', corners: originalCorners(105, 5, 10, true), created_at: '2019-06-01 12:00:00' });

    const create = (fields: Record<string, unknown>): Promise<void> => {
      const row = { namekana: 'しんせい', player: 'AliceNew', uuid: alice.uuid, corners: originalCorners(500, 0, 10, true), created_at: '2020-06-01 00:00:00', ...fields };
      const columns = Object.keys(row);
      return target.query(`INSERT INTO cities_new_waiting (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, Object.values(row));
    };
    await create({ name: 'Chuo', namekana: 'ちゅうおう', corners: originalCorners(0, 0, 10, true), status: 1, city_id: 12 });
    // 0 with city_id: approved by vote and applied.
    await create({ name: 'Bob Town', namekana: 'ぼぶたうん', player: 'BobName', uuid: bob.uuid, corners: originalCorners(100, 0, 10, false), status: 0, city_id: 13 });
    await create({ name: 'Pending Town', namekana: 'ぺんでぃんぐ', status: 0, city_id: null });
    await create({ name: 'Rejected Town', namekana: 'りじぇくと', corners: originalCorners(700, 0, 10, true), status: -1, city_id: null });

    await target.query('INSERT INTO cities_corners_waiting (cities_id, corners_old, corners_new, status, created_at) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)', [
      12,
      originalCorners(0, 0, 10, true),
      originalCorners(0, 0, 12, true),
      0,
      '2021-01-01 00:00:00',
      12,
      originalCorners(0, 0, 8, true),
      originalCorners(0, 0, 10, true),
      1,
      '2020-01-01 00:00:00',
    ]);
    await target.query('INSERT INTO cities_other_waiting (cities_id, name_new, status, created_at) VALUES (13, ?, 0, ?), (13, ?, -1, ?)', ['Bob City', '2021-02-01 00:00:00', 'Rejected Name', '2021-01-01 00:00:00']);

    // Two active links for alice: the newest wins. bob's link was disabled. carol never logged in since the cutoff.
    await target.query('INSERT INTO discordlink (player, uuid, name, disid, disabled) VALUES (?, ?, ?, ?, 0), (?, ?, ?, ?, 1), (?, ?, ?, ?, 0), (?, ?, ?, ?, 0)', [
      'AliceOld',
      alice.uuid,
      'alice',
      chatOld,
      'BobName',
      bob.uuid,
      'bob',
      chatBob,
      'AliceNew',
      alice.uuid,
      'alice',
      chatNew,
      'Carol',
      carol.uuid,
      'carol',
      '100000000000000004',
    ]);

    await target.query('INSERT INTO jaoSuperAchievement2_Type (id, title, description, hidden, created_at) VALUES (1, ?, ?, 0, ?), (2, ?, ?, 1, ?)', [
      'First login',
      'Log in once',
      '2018-01-01 00:00:00',
      'Secret',
      'Find it',
      '2018-01-01 00:00:00',
    ]);
    // A duplicate unlock: the earliest time stands.
    await target.query('INSERT INTO jaoSuperAchievement2 (player, uuid, achievementid, created_at) VALUES (?, ?, 1, ?), (?, ?, 1, ?), (?, ?, 2, ?), (?, ?, 1, ?)', [
      'AliceOld',
      alice.uuid,
      '2019-01-01 00:31:00',
      'AliceNew',
      alice.uuid,
      '2020-06-01 21:00:00',
      'AliceNew',
      alice.uuid,
      '2020-06-02 00:00:00',
      'BobName',
      bob.uuid,
      '2020-05-01 12:00:01',
    ]);

    await target.query('INSERT INTO clubjaoafa (uuid, token, clubgroup, password, created_at) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)', [
      alice.uuid,
      'a'.repeat(32),
      'default',
      'unknown-hash',
      '2020-07-01 00:00:00',
      dave.uuid,
      'b'.repeat(32),
      'admin',
      'unknown-hash',
      '2022-02-03 00:00:00',
      carol.uuid,
      'c'.repeat(32),
      'default',
      'unknown-hash',
      '2018-01-01 00:00:00',
    ]);
    await target.query("INSERT INTO userkey (userkey, player, uuid, used, created_time) VALUES ('AbcdefGhij', 'AliceNew', ?, 0, NOW())", [alice.uuid]);
  }

  beforeAll(async () => {
    source = await createOriginalSource();
    await fillSource(source);
    app = await TestApp.start({ DATA_CUTOFF: CUTOFF });
    operatorKey = await app.createApiKey(['operator']);
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app?.stop();
    await source?.drop();
  });

  let first: Report;

  it('--dry-run reports what a real run does and writes nothing', async () => {
    // Warm the server's caches first: the import must show through them.
    expect((await app.get<{ data: unknown[] }>('/cities')).body.data).toEqual([]);
    expect((await app.get(`/users/${alice.uuid}`)).status).toBe(404);

    const dry = await cli('--from', source.url, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.report.dryRun).toBe(true);
    expect((await app.get<{ data: unknown[] }>('/cities')).body.data).toEqual([]);
    expect((await app.get(`/users/${alice.uuid}`)).status).toBe(404);
    expect((await app.get<{ data: unknown[] }>('/cities/requests', asOperator())).body.data).toEqual([]);

    const real = await cli('--from', source.url);
    expect(real.code).toBe(0);
    first = real.report;
    expect(first.dryRun).toBe(false);
    expect(dry.report.tables).toEqual(first.tables);
    expect(dry.report.problems).toEqual(first.problems);
    expect(dry.report.requests.map(({ table, id }) => ({ table, id }))).toEqual(first.requests.map(({ table, id }) => ({ table, id })));
  });

  it('reports every table with read = imported + unchanged + skipped, and the rows it could not read', () => {
    for (const table of Object.values(first.tables)) {
      expect(table.read).toBe(table.sourceRows);
      expect(table.read).toBe(table.imported + table.unchanged + table.skipped);
      expect(table.skipped).toBe(table.excluded + table.problems);
    }
    expect(first.tables).toEqual({
      jaoSuperAchievement2_Type: counts(2, 2, 0, 0, 0),
      // 9 rows: 4 stored; 2 before the cutoff (alice's first, carol's only one) and 1 refused (excluded), 2 unreadable (problems).
      login: counts(9, 4, 0, 3, 2),
      cities: counts(5, 3, 0, 0, 2),
      cities_new_waiting: counts(4, 4, 0, 0, 0),
      cities_corners_waiting: counts(2, 2, 0, 0, 0),
      cities_other_waiting: counts(2, 2, 0, 0, 0),
      // bob's unlinked row is excluded; an older active row and carol's (no login since the cutoff) are problems.
      discordlink: counts(4, 1, 0, 1, 2),
      // A repeat of one unlock is excluded.
      jaoSuperAchievement2: counts(4, 3, 0, 1, 0),
      clubjaoafa: counts(3, 2, 0, 0, 1),
    });
    // Every skipped row that is a problem is listed, as skipped.
    for (const [table, entry] of Object.entries(first.tables)) {
      expect(first.problems.filter((problem) => problem.table === table && problem.skipped)).toHaveLength(entry.problems);
    }
    const problem = (table: string, id: number | string | null): string | undefined => first.problems.find((entry) => entry.table === table && entry.id === id)?.reason;
    expect(problem('login', 8)).toMatch(/uuid/);
    expect(problem('login', 9)).toMatch(/date that exists/);
    expect(problem('cities', 14)).toMatch(/not JSON/);
    expect(problem('cities', 15)).toMatch(/owner not found/);
    expect(first.problems.filter((entry) => entry.table === 'cities' && entry.id === 20).map((entry) => entry.reason)).toEqual([
      expect.stringMatching(/outside today's pattern/),
      expect.stringMatching(/overlaps city 13/),
    ]);
    expect(problem('discordlink', 1)).toMatch(/newer active row/);
    expect(problem('discordlink', 4)).toMatch(/no login on or after/);
    expect(problem('clubjaoafa', 3)).toMatch(/no login on or after/);
    expect(first.requests.map(({ table, id }) => `${table}#${id}`)).toEqual([
      'cities_new_waiting#1',
      'cities_new_waiting#2',
      'cities_new_waiting#3',
      'cities_new_waiting#4',
      'cities_corners_waiting#1',
      'cities_corners_waiting#2',
      'cities_other_waiting#1',
      'cities_other_waiting#2',
    ]);
  });

  it('a running server shows the cities at once, with the same ids, block counts from the corners and their owners', async () => {
    const chuo = await app.get<{ data: Record<string, unknown> }>('/cities/12');
    expect(chuo.status).toBe(200);
    expect(chuo.body.data).toMatchObject({
      id: 12,
      name: 'Chuo',
      nameKana: 'ちゅうおう',
      corners: [
        { id: 1, x: '0', z: '0' },
        { id: 2, x: '0', z: '9' },
        { id: 3, x: '9', z: '9' },
        { id: 4, x: '9', z: '0' },
      ],
      count: 100,
      owner: { uuid: alice.uuid, mcid: 'AliceNew', chatid: chatNew },
      createdAt: jst('2019-04-01 00:10:00'),
      updatedAt: jst('2020-01-01 09:00:00'),
    });
    const bobTown = await app.get<{ data: Record<string, unknown> }>('/cities/13');
    expect(bobTown.body.data).toMatchObject({ owner: { uuid: bob.uuid, mcid: 'BobName' }, count: 100, regionName: 'bob_town' });
    expect((await app.get('/cities/14')).status).toBe(404);
    expect((await app.get('/cities/15')).status).toBe(404);
    expect((await app.get<{ data: Array<{ id: number }> }>('/cities')).body.data.map((city) => city.id)).toEqual([12, 13, 20]);
  });

  it('players: first and last login from successful logins since the cutoff, the latest name and permission, the newest chat link', async () => {
    const expected = { uuid: alice.uuid, mcid: 'AliceNew', chatid: chatNew, permission: 'Verified', firstLogin: jst('2019-01-01 00:30:00'), lastLogin: jst('2020-06-01 21:00:00') };
    expect((await app.get<{ data: unknown }>(`/users/${alice.uuid}`)).body.data).toMatchObject(expected);
    expect((await app.get<{ data: unknown }>('/users/AliceNew')).body.data).toMatchObject(expected);
    expect((await app.get<{ data: unknown }>(`/users/${chatNew}`)).body.data).toMatchObject(expected);
    expect((await app.get(`/users/${chatOld}`)).status).toBe(404);
    expect((await app.get(`/users/${carol.uuid}`)).status).toBe(404);
    expect((await app.get<{ data: unknown }>(`/users/${bob.uuid}`)).body.data).toMatchObject({ mcid: 'BobName', chatid: null });
  });

  it('achievements: the catalogue, and one unlock per player and achievement at the earliest time', async () => {
    const unlocked = await app.get<{ data: Array<Record<string, unknown>>; unlocked: number; total: number }>(`/users/achievements/${alice.uuid}`);
    expect(unlocked.body).toMatchObject({ unlocked: 2, total: 2 });
    expect(unlocked.body.data).toEqual([
      { id: 1, title: 'First login', description: 'Log in once', hidden: false, unlockedAt: jst('2019-01-01 00:31:00') },
      { id: 2, title: 'Secret', description: 'Find it', hidden: true, unlockedAt: jst('2020-06-02 00:00:00') },
    ]);
  });

  it("requests: statuses as the original meant them, in the operator's queue, with the requested changes", async () => {
    const id = (table: string, sourceId: number): number => first.requests.find((entry) => entry.table === table && entry.id === sourceId)!.requestId;
    const pending = await app.get<{ data: Array<Record<string, unknown>> }>('/cities/requests', asOperator());
    expect(pending.body.data.map((request) => request.id)).toEqual([id('cities_new_waiting', 3), id('cities_corners_waiting', 1), id('cities_other_waiting', 1)]);
    expect(pending.body.data[0]).toMatchObject({ type: 'create', status: 'pending', requester: { uuid: alice.uuid, mcid: 'AliceNew' }, changes: { cityName: 'Pending Town' } });
    expect(pending.body.data[1]).toMatchObject({ type: 'region', cityId: 12, requester: { uuid: alice.uuid }, changes: { count: 144 } });
    expect(pending.body.data[2]).toMatchObject({ type: 'update', cityId: 13, requester: { uuid: bob.uuid }, changes: { cityName: 'Bob City' }, createdAt: jst('2021-02-01 00:00:00') });
    expect(Object.keys(pending.body.data[2].changes as object)).toEqual(['cityName']);

    const approved = await app.get<{ data: Array<Record<string, unknown>> }>('/cities/requests', { query: { status: 'approved', type: 'create' }, ...asOperator() });
    expect(approved.body.data.map((request) => [request.id, request.cityId])).toEqual([
      [id('cities_new_waiting', 1), 12],
      [id('cities_new_waiting', 2), 13],
    ]);
    const rejected = await app.get<{ data: Array<Record<string, unknown>> }>('/cities/requests', { query: { status: 'rejected' }, ...asOperator() });
    expect(rejected.body.data.map((request) => request.id)).toEqual([id('cities_new_waiting', 4), id('cities_other_waiting', 2)]);
  });

  it('club: an imported account has no password until the in-game key sets one, then signs in with its group', async () => {
    const wrong = await app.post('/club/token', { username: 'Dave', password: 'whatever-it-was', recaptcha: 'pass' });
    const unknown = await app.post('/club/token', { username: 'nobody_here', password: 'whatever-it-was', recaptcha: 'pass' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    const userkey = await app.issueUserKey(gameServerKey, dave.uuid, 'Dave');
    const reset = await app.post<{ usertoken: string }>('/club/password/reset', { userkey, password: 'a-new-password', recaptcha: 'pass' });
    expect(reset.status).toBe(200);
    const me = await app.get<{ data: Record<string, unknown> }>('/club/@me', { query: { usertoken: reset.body.usertoken } });
    expect(me.body.data).toMatchObject({ uuid: dave.uuid, mcid: 'Dave', clubgroup: 'admin', nickname: null });
  });

  it('a second run changes nothing; what changed here since is reported and kept', async () => {
    const again = await cli('--from', source.url);
    expect(again.code).toBe(0);
    for (const [table, now] of Object.entries(again.report.tables)) {
      const before = first.tables[table];
      // dave's password was set here (previous test): reported, not overwritten.
      const changedHere = table === 'clubjaoafa' ? 1 : 0;
      expect({ table, ...now }).toEqual({ table, ...counts(before.read, 0, before.imported - changedHere, before.excluded, before.problems + changedHere) });
    }
    expect(again.report.requests).toEqual(first.requests);
    expect(again.report.problems.find((entry) => entry.table === 'clubjaoafa' && entry.id === 2)?.reason).toMatch(/changed here since the import/);

    // A pending request decided here: reported, the decision stays.
    const pendingCreate = first.requests.find((entry) => entry.table === 'cities_new_waiting' && entry.id === 3)!.requestId;
    const [request] = (await app.get<{ data: Array<{ id: number; cityId: number }> }>('/cities/requests', { query: { type: 'create' }, ...asOperator() })).body.data;
    expect(request.id).toBe(pendingCreate);
    expect((await app.post(`/cities/approval/create/${request.cityId}`, undefined, asOperator())).status).toBe(200);
    const third = await cli('--from', source.url);
    expect(third.report.tables.cities_new_waiting).toEqual(counts(4, 0, 3, 0, 1));
    expect(third.report.problems.find((entry) => entry.table === 'cities_new_waiting' && entry.id === 3)?.reason).toMatch(/approved here since the import/);
    expect((await app.get<{ data: { status: string }[] }>('/cities/requests', { query: { status: 'approved', type: 'create' }, ...asOperator() })).body.data).toHaveLength(3);
  });

  it('cities created after the import get ids above every imported id', async () => {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const created = await app.post<{ cityId: number }>('/cities/create', {
      usertoken: userkey,
      cityName: 'After Import',
      cityNameKana: 'あふたー',
      corners: square(5000, 5000),
      count: 100,
      recaptcha: 'pass',
    });
    expect(created.status).toBe(201);
    expect(created.body.cityId).toBeGreaterThan(20);
  });

  describe('bad input', () => {
    it('an unreachable source, wrong credentials, a database that is not the original: exit 2, one line, nothing written', async () => {
      const target = await createTestDatabase();
      const env = { DATABASE_URL: target.url, NODE_ENV: 'test', LOG_LEVEL: 'error' };
      try {
        const port = await freePort();
        const unreachable = await runCli(['import:original', '--from', `mysql://root@127.0.0.1:${port}/jaoMain`], env);
        expect(unreachable.code).toBe(2);
        expect(unreachable.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Cannot reach the source database at 127\.0\.0\.1:\d+\/jaoMain \(ECONNREFUSED\): check the host and port/)]);

        const admin = new URL(source.url);
        const denied = await runCli(['import:original', '--from', `mysql://no_such_user:wrong@${admin.host}/${source.name}`], env);
        expect(denied.code).toBe(2);
        expect(denied.stderr.trim().split('\n')).toEqual([expect.stringMatching(/refused the user name or password: check the credentials/)]);

        const empty = await createOriginalSource(['login']);
        try {
          const notOriginal = await runCli(['import:original', '--from', empty.url, '--json'], env);
          expect(notOriginal.code).toBe(2);
          expect(JSON.parse(notOriginal.stdout)).toEqual({ error: expect.stringMatching(/has no cities table: it is not the original service's database/) });
        } finally {
          await empty.drop();
        }
        const zone = await runCli(['import:original', '--from', source.url, '--source-time-zone', 'Tokyo'], env);
        expect(zone.code).toBe(2);
        expect(zone.stderr).toMatch(/not an offset like \+09:00/);

        // Nothing was written: the target has no cities and no players.
        const probe = await TestApp.start({}, { database: target });
        try {
          expect((await probe.get<{ data: unknown[] }>('/cities')).body.data).toEqual([]);
          expect((await probe.get(`/users/${alice.uuid}`)).status).toBe(404);
        } finally {
          await probe.stop({ keepDatabase: true });
        }
      } finally {
        await target.drop();
      }
    }, 240_000);

    it('a missing optional table is a warning that names it; the rest is imported', async () => {
      const minimal = await createOriginalSource(['login', 'cities']);
      const target = await createTestDatabase();
      try {
        await minimal.query("INSERT INTO login (player, uuid, date, login_success) VALUES ('Solo', ?, '2020-01-01 00:00:00', 1)", [alice.uuid]);
        const run = await runCli(['import:original', '--from', minimal.url, '--json'], { DATABASE_URL: target.url, NODE_ENV: 'test', LOG_LEVEL: 'error' });
        expect(run.code).toBe(0);
        const report = JSON.parse(run.stdout) as Report;
        expect(report.tables.login).toEqual(counts(1, 1, 0, 0, 0));
        expect(report.problems.map((entry) => [entry.table, entry.id])).toEqual([
          ['jaoSuperAchievement2_Type', null],
          ['cities_new_waiting', null],
          ['cities_corners_waiting', null],
          ['cities_other_waiting', null],
          ['discordlink', null],
          ['jaoSuperAchievement2', null],
          ['clubjaoafa', null],
          // The players site's tables, in their import order.
          ...['daily-onlinetime', 'onlinetime', 'afktime', 'vote', 'vote_monocraft', 'permissions', 'subaccount', 'socials', 'jail', 'eban', 'chatban', 'chatjail', 'periodmatch2', 'mcbans_jaoafa'].map((table) => [
            table,
            null,
          ]),
        ]);
        expect(report.problems[0].reason).toMatch(/^warning: the source has no jaoSuperAchievement2_Type table/);
      } finally {
        await target.drop();
        await minimal.drop();
      }
    }, 120_000);
  });

  it('a run cut off part-way (process killed, source gone) is completed by the next run', async () => {
    const big = await createOriginalSource(['login', 'cities']);
    const target = await createTestDatabase();
    const players = Array.from({ length: 50 }, () => newPlayer());
    try {
      // 30,000 logins over 50 players, 6 pages of the source.
      const values = Array.from({ length: 30_000 }, (_, index) => {
        const player = players[index % players.length];
        const time = new Date(Date.UTC(2020, 0, 1) + index * 60_000).toISOString().slice(0, 19).replace('T', ' ');
        return `('${player.mcid}', '${player.uuid}', '${time}', 1)`;
      });
      for (let start = 0; start < values.length; start += 5000) {
        await big.query(`INSERT INTO login (player, uuid, date, login_success) VALUES ${values.slice(start, start + 5000).join(', ')}`);
      }
      const env = { ...process.env, DATABASE_URL: target.url, DATA_CUTOFF: CUTOFF, NODE_ENV: 'test', LOG_LEVEL: 'error' };
      const child: ChildProcess = spawn(process.execPath, [join(__dirname, '..', 'scripts', 'cli.js'), 'import:original', '--from', big.url, '--json'], { env, stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Killed once some login records are in: polls the target while the import runs.
      const count = await countLogins(target.url);
      let stored = 0;
      for (let attempt = 0; attempt < 2000 && stored === 0; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        stored = await count().catch(() => 0);
      }
      child.kill('SIGKILL');
      await exited;
      const partial = await count();
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(30_000);

      // The source goes away part-way: exit 2, the line says to run again.
      const proxy = new TcpProxy('127.0.0.1', 3306);
      const proxyPort = await proxy.start();
      try {
        const viaProxy = new URL(big.url);
        viaProxy.host = `127.0.0.1:${proxyPort}`;
        const cut = runCli(['import:original', '--from', viaProxy.toString()], env);
        for (let attempt = 0; attempt < 2000 && (await count().catch(() => 0)) <= partial; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        proxy.down();
        const stopped = await cut;
        // Failed part-way (1), not refused (2): what was written stays.
        expect(stopped.code).toBe(1);
        // Progress lines first (stderr is no terminal), then the one line that says what happened.
        expect(stopped.stderr.trim().split('\n').pop()).toMatch(/(Cannot reach|Lost the connection to) the source database.*The import stopped part-way: run the same command again to complete it\.$/);
      } finally {
        await proxy.stop();
      }

      const rerun = await runCli(['import:original', '--from', big.url, '--json'], env);
      expect(rerun.code).toBe(0);
      const report = JSON.parse(rerun.stdout) as Report;
      expect(report.tables.login.read).toBe(30_000);
      expect(report.tables.login.imported + report.tables.login.unchanged).toBe(30_000);
      expect(report.tables.login.unchanged).toBeGreaterThan(partial);
      expect(await count()).toBe(30_000);
      // Players first stored part-way (with the summary of one batch) are settled over all their logins.
      const query = await queryTarget(target.url);
      const settled = await query(
        `SELECT COUNT(*) AS n FROM players p WHERE p.first_login = (SELECT MIN(l.logged_in_at) FROM login_records l WHERE l.player_uuid = p.uuid)
           AND p.last_login = (SELECT MAX(l.logged_in_at) FROM login_records l WHERE l.player_uuid = p.uuid)`,
      );
      expect(settled).toBe(players.length);
    } finally {
      await target.drop();
      await big.drop();
    }
  }, 240_000);
});

/** Counts the target's login records through its own driver (SQLite file or MariaDB). */
async function countLogins(url: string): Promise<() => Promise<number>> {
  const query = await queryTarget(url);
  return () => query('SELECT COUNT(*) AS n FROM login_records');
}

/** Runs a `SELECT COUNT(*) AS n` on the target through its own driver (SQLite file or MariaDB). */
async function queryTarget(url: string): Promise<(sql: string) => Promise<number>> {
  if (url.startsWith('sqlite:')) {
    const Database = (await import('better-sqlite3')).default;
    // eslint-disable-next-line @typescript-eslint/require-await -- async, so a missing file rejects instead of throwing
    return async (sql) => {
      const db = new Database(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
      try {
        return Number((db.prepare(sql).get() as { n: number }).n);
      } finally {
        db.close();
      }
    };
  }
  return async (sql) => {
    const connection = await createConnection(url);
    try {
      const [rows] = await connection.query(sql);
      return Number((rows as Array<{ n: number }>)[0].n);
    } finally {
      await connection.end();
    }
  };
}
