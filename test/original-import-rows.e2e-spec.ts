import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { square } from './support/cities';
import { createOriginalSource, originalCorners, OriginalSource, ORIGINAL_TABLES, OriginalTable } from './support/original-source';
import type { ImportReportJson as Report, Problem } from '../src/original-import/import-report';
import { runCli } from './support/run-cli';
import { newPlayer, TestApp } from './support/test-app';

interface RequestView {
  id: number;
  type: string;
  status: string;
  cityId: number;
  city: { id: number; name: string };
  changes: Record<string, unknown>;
  decidedBy: string | null;
  rejectReason: string | null;
}

const CUTOFF = '2018-03-20T00:00:00+09:00';
const MYSQL_ADMIN_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

/** Corners as the original stored them, with numbers JSON can hold but no world can (1e300, 2^53). */
function farCorners(far: number): string {
  return JSON.stringify([
    { id: 1, x: 0, z: 0 },
    { id: 2, x: 0, z: far },
    { id: 3, x: far, z: far },
    { id: 4, x: far, z: 0 },
  ]);
}

/**
 * Rows the original holds and this service can't, ids no sequence would make, requests that break
 * today's rules: each is accounted for, reported with its table and id, and nothing lands where it
 * does not belong (docs/moving-from-original.md).
 */
describe('import:original: every row accounted for (e2e: a MariaDB source, the real CLI, checked over HTTP)', () => {
  let source: OriginalSource;
  let app: TestApp;
  let operatorKey: string;
  let workDir: string;
  const mariadbTarget = process.env.TEST_DATABASE === 'mysql';
  const asOperator = (): { headers: Record<string, string> } => ({ headers: { 'x-api-key': operatorKey } });
  const alice = newPlayer();
  const bob = newPlayer();
  const hereOwner = newPlayer();
  /** Login rows: all but 5 refused ones are successful, with distinct times. */
  const LOGIN_ROWS = 6007;

  const env = (): Record<string, string> => ({ DATABASE_URL: app.database.url, DATA_CUTOFF: CUTOFF, NODE_ENV: 'test', LOG_LEVEL: 'error' });
  const cli = async (...args: string[]): Promise<{ code: number; report: Report; stdout: string; stderr: string }> => {
    const run = await runCli(['import:original', ...args, '--json'], env());
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    return { ...run, report: JSON.parse(run.stdout) as Report };
  };
  const insert = (table: string, row: Record<string, unknown>): Promise<void> => {
    const columns = Object.keys(row);
    return source.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, Object.values(row));
  };
  const city = (id: number, fields: Record<string, unknown>): Promise<void> =>
    insert('cities', { id, namekana: 'まち', player: 'AliceName', uuid: alice.uuid, summary: 'A town', created_at: '2019-04-01 00:00:00', ...fields });

  async function fillSource(): Promise<void> {
    // No key at all, ids that repeat across every page boundary, negative, zero, not numbers.
    await source.query(
      'CREATE TABLE login (id VARCHAR(16) NULL, player VARCHAR(32), uuid VARCHAR(64), ip VARCHAR(64), permission VARCHAR(64), date DATETIME NULL, login_success VARCHAR(8) NULL)',
    );
    const rows: string[] = [];
    const at = (index: number): string => new Date(Date.UTC(2020, 0, 1) + index * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    for (let index = 0; index < 5998; index += 1) {
      const [player, uuid] = index % 2 === 0 ? ['AliceName', alice.uuid] : ['BobName', bob.uuid];
      rows.push(`('7', '${player}', '${uuid}', '${at(index)}', '1')`);
    }
    // Every true spelling is a successful login, under odd ids.
    for (const [index, [id, success]] of [['-3', 'Y'], ['0', 'yes'], ['1.5', 'TRUE'], ['abc', 'true']].entries()) {
      rows.push(`('${id}', 'AliceName', '${alice.uuid}', '${at(10_000 + index)}', '${success}')`);
    }
    // Every other value is a refused one.
    for (const [index, success] of ["'N'", "'no'", "'2'", 'NULL', "''"].entries()) {
      rows.push(`('7', 'BobName', '${bob.uuid}', '${at(20_000 + index)}', ${success})`);
    }
    for (let start = 0; start < rows.length; start += 2000) {
      await source.query(`INSERT INTO login (id, player, uuid, date, login_success) VALUES ${rows.slice(start, start + 2000).join(', ')}`);
    }
    expect(rows).toHaveLength(LOGIN_ROWS);

    // Ids 0 and below need the session to take 0 literally.
    await source.query("SET sql_mode = 'ALLOW_INVALID_DATES,NO_AUTO_VALUE_ON_ZERO'");
    // City 1 exists here already (made here): the original's city 1 and all that belongs to it stay out.
    await city(1, { name: 'Taken Id', namekana: 'ていくん', corners: originalCorners(8000, 0, 10, true) });
    await city(-5, { name: 'Minus Five', namekana: 'まいなす', corners: originalCorners(1000, 0, 10, true) });
    await city(0, { name: 'Zero', namekana: 'ぜろ', corners: originalCorners(2000, 0, 10, true) });
    await city(30, { name: 'Far Away', namekana: 'とおい', corners: farCorners(1e300) });
    await city(31, { name: 'Too Far', namekana: 'とおすぎ', corners: farCorners(2 ** 53) });
    // Inside the world, but 29,000,001² blocks: more than an INTEGER column holds.
    await city(34, { name: 'Huge Area', namekana: 'ひろい', corners: farCorners(29_000_000) });
    // 70,000 characters: over what a MariaDB TEXT column holds, nothing special on SQLite (the original's may be longer texts).
    await source.query('ALTER TABLE cities MODIFY summary MEDIUMTEXT');
    await city(32, { name: 'Long Summary', namekana: 'ながい', corners: originalCorners(4000, 0, 10, true), summary: 'x'.repeat(70_000) });
    await city(33, { name: 'Normal', namekana: 'ふつう', regionname: 'normal', corners: originalCorners(3000, 0, 10, true) });

    const create = (id: number, fields: Record<string, unknown>): Promise<void> =>
      insert('cities_new_waiting', { id, namekana: 'しんせい', player: 'AliceName', uuid: alice.uuid, status: 0, created_at: '2021-03-01 00:00:00', ...fields });
    await create(1, { name: 'Taken Id', namekana: 'ていくん', corners: originalCorners(8000, 0, 10, true), status: 1, city_id: 1 });
    await create(2, { name: 'Mallory Town', regionname: 'x;op mallory\r\nrg remove *', corners: originalCorners(6000, 0, 10, true) });
    await create(3, { name: 'Good New', corners: originalCorners(5000, 0, 10, true) });
    await create(4, { name: 'Normal', namekana: 'ふつう', corners: originalCorners(7000, 0, 10, true) });

    const region = (id: number, cityId: number, corners: string): Promise<void> =>
      insert('cities_corners_waiting', { id, cities_id: cityId, corners_new: corners, status: 0, created_at: '2021-03-01 00:00:00' });
    await region(1, 33, farCorners(1e300));
    await region(2, -5, originalCorners(1000, 0, 12, true));

    const update = (id: number, cityId: number, name: string, createdAt: string): Promise<void> =>
      insert('cities_other_waiting', { id, cities_id: cityId, name_new: name, status: 0, created_at: createdAt });
    await update(1, 1, 'Taken Renamed', '2021-03-01 00:00:00');
    await update(2, 33, 'Normal One', '2021-01-01 00:00:00');
    await update(3, 33, 'Normal Two', '2021-02-01 00:00:00');
    await update(4, 0, '', '2021-03-01 00:00:00');

    await source.query('INSERT INTO jaoSuperAchievement2_Type (id, title, description, hidden, created_at) VALUES (1, ?, ?, 0, ?), (5, ?, ?, 0, ?)', [
      'First login',
      'Log in once',
      '2018-01-01 00:00:00',
      'Fifth',
      'Five of them',
      '2018-01-01 00:00:00',
    ]);
    await source.query('INSERT INTO jaoSuperAchievement2 (player, uuid, achievementid, created_at) VALUES (?, ?, 1, ?), (?, ?, 5, ?), (?, ?, 99, ?)', [
      'AliceName',
      alice.uuid,
      '2020-01-02 00:00:00',
      'AliceName',
      alice.uuid,
      '2020-01-03 00:00:00',
      'AliceName',
      alice.uuid,
      '2020-01-04 00:00:00',
    ]);
  }

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'original-import-'));
    const tables = (Object.keys(ORIGINAL_TABLES) as OriginalTable[]).filter((table) => table !== 'login');
    source = await createOriginalSource(tables);
    await fillSource();
    app = await TestApp.start({ DATA_CUTOFF: CUTOFF });
    operatorKey = await app.createApiKey(['operator']);
    const gameServerKey = await app.createApiKey(['game-server']);
    // City 1 here, made here; achievement 1 here, defined otherwise.
    const userkey = await app.issueUserKey(gameServerKey, hereOwner.uuid, hereOwner.mcid);
    const made = await app.post<{ cityId: number }>('/cities/create', {
      usertoken: userkey,
      cityName: 'Made Here',
      cityNameKana: 'ここでつくった',
      corners: square(9000, 9000),
      count: 100,
      recaptcha: 'pass',
    });
    expect(made.body.cityId).toBe(1);
    await execTarget(app.database.url, "INSERT INTO achievements (id, title, description, hidden, created_at, updated_at) VALUES (1, 'First city', 'Found a city', 0, ?, ?)", [
      '2020-01-01 00:00:00.000',
      '2020-01-01 00:00:00.000',
    ]);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await source?.drop();
    rmSync(workDir, { recursive: true, force: true });
  });

  let dry: Report;
  let real: Report;
  let fileProblems: Problem[];

  it('a dry run reports exactly the ids the real run creates; --report FILE lists every problem as a JSON line', async () => {
    dry = (await cli('--from', source.url, '--dry-run')).report;
    const reportFile = join(workDir, 'problems.jsonl');
    real = (await cli('--from', source.url, '--report', reportFile)).report;
    expect(dry.dryRun).toBe(true);
    expect(dry.tables).toEqual(real.tables);
    expect(dry.problems).toEqual(real.problems);
    expect(dry.requests).toEqual(real.requests);
    expect(dry.renumbered).toEqual(real.renumbered);
    expect(real.requests.length).toBeGreaterThan(0);
    fileProblems = readFileSync(reportFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Problem);
    expect(fileProblems).toEqual(real.problems);
  });

  it('every table reconciles: read = the source COUNT(*) = imported + unchanged + skipped, skipped = excluded + listed problems', () => {
    for (const [table, counts] of Object.entries(real.tables)) {
      expect({ table, read: counts.read }).toEqual({ table, read: counts.sourceRows });
      expect(counts.imported + counts.unchanged + counts.skipped).toBe(counts.read);
      expect(counts.excluded + counts.problems).toBe(counts.skipped);
      expect(real.problems.filter((problem) => problem.table === table && problem.skipped)).toHaveLength(counts.problems);
    }
  });

  it('paging misses no login row whatever the ids (repeated across pages, negative, zero, not numbers); only true login_success values count', async () => {
    expect(real.tables.login).toEqual({ sourceRows: LOGIN_ROWS, read: LOGIN_ROWS, imported: LOGIN_ROWS - 5, unchanged: 0, skipped: 5, excluded: 5, problems: 0 });
    expect(await countTarget(app.database.url, 'SELECT COUNT(*) AS n FROM login_records')).toBe(LOGIN_ROWS - 5);
    // bob's refused logins ('N', 'no', '2', NULL, '') came last: his last login is his last successful one.
    const bobNow = await app.get<{ data: { lastLogin: string } }>(`/users/${bob.uuid}`);
    expect(bobNow.body.data.lastLogin).toBe(new Date(Date.UTC(2020, 0, 1) + 5997 * 60_000 - 9 * 3_600_000).toISOString());
  });

  it("rows the target can't hold are reported with table, id and reason and skipped; the rest goes on", async () => {
    const reasons = (table: string, id: number | string): string[] => real.problems.filter((entry) => entry.table === table && entry.id === id).map((entry) => entry.reason);
    expect(reasons('cities', 30)).toEqual([expect.stringMatching(/outside the world's bounds/)]);
    expect(reasons('cities', 31)).toEqual([expect.stringMatching(/outside the world's bounds/)]);
    expect(reasons('cities', 34)).toEqual([expect.stringMatching(/more than a block count column holds/)]);
    const names = (await app.get<{ data: Array<{ name: string }> }>('/cities')).body.data.map((entry) => entry.name);
    expect(names).not.toContain('Far Away');
    expect(names).not.toContain('Too Far');
    if (mariadbTarget) {
      expect(reasons('cities', 32)).toEqual([expect.stringMatching(/summary is 70000 bytes, over the 65535 a text column holds on MariaDB/)]);
      expect(names).not.toContain('Long Summary');
    } else {
      expect(reasons('cities', 32)).toEqual([]);
      expect(names).toContain('Long Summary');
    }
    expect(real.tables.cities).toMatchObject({ read: 8, problems: mariadbTarget ? 5 : 4 });
  });

  it('cities with ids <= 0 get new ids, reported with the mapping, and their requests follow them', async () => {
    const newIdOf = (id: number): number => real.renumbered.find((entry) => entry.table === 'cities' && entry.id === id)!.newId;
    for (const [id, name] of [
      [-5, 'Minus Five'],
      [0, 'Zero'],
    ] as const) {
      const newId = newIdOf(id);
      expect(newId).toBeGreaterThan(1);
      const shown = await app.get<{ data: { id: number; name: string } }>(`/cities/${newId}`);
      expect(shown.status).toBe(200);
      expect(shown.body.data).toMatchObject({ id: newId, name });
    }
    const pending = (await app.get<{ data: RequestView[] }>('/cities/requests', { query: { type: 'region' }, ...asOperator() })).body.data;
    expect(pending.map((request) => [request.cityId, request.changes.count])).toEqual([[newIdOf(-5), 144]]);
  });

  it("a skipped city's requests are skipped with it, never attached to the city here with that id", async () => {
    expect(real.problems.find((entry) => entry.table === 'cities' && entry.id === 1)?.reason).toMatch(/exists here with other data/);
    for (const table of ['cities_new_waiting', 'cities_other_waiting']) {
      expect(real.problems.find((entry) => entry.table === table && entry.id === 1)).toEqual({
        table,
        id: 1,
        skipped: true,
        reason: expect.stringMatching(/belongs to city #1, which was not imported \(city 1 exists here with other data/),
      });
    }
    const ofCity1: string[] = [];
    for (const status of ['pending', 'approved', 'rejected']) {
      const requests = (await app.get<{ data: RequestView[] }>('/cities/requests', { query: { status }, ...asOperator() })).body.data;
      ofCity1.push(...requests.filter((request) => request.cityId === 1).map((request) => `${request.type} ${request.status} ${request.city.name}`));
    }
    // Only its own create, made here.
    expect(ofCity1).toEqual(['create pending Made Here']);
  });

  it('pending requests obey the rules of a new request: a breaking one is imported rejected with its reason, so none can be approved', async () => {
    const requestId = (table: string, id: number): number => real.requests.find((entry) => entry.table === table && entry.id === id)!.requestId;
    const rejected = new Map(
      (await app.get<{ data: RequestView[] }>('/cities/requests', { query: { status: 'rejected' }, ...asOperator() })).body.data.map((request) => [request.id, request]),
    );
    const expectRejected = (table: string, id: number, reason: RegExp): void => {
      expect(rejected.get(requestId(table, id))).toMatchObject({ status: 'rejected', decidedBy: 'import:original', rejectReason: expect.stringMatching(reason) });
      expect(real.problems.find((entry) => entry.table === table && entry.id === id)).toMatchObject({ skipped: false, reason: expect.stringMatching(reason) });
    };
    expectRejected('cities_new_waiting', 2, /regionName/);
    expectRejected('cities_new_waiting', 4, /name is taken by city 33 \(Normal\)/);
    expectRejected('cities_corners_waiting', 1, /corners/);
    expectRejected('cities_other_waiting', 2, /superseded by the newer pending request #3/);
    expectRejected('cities_other_waiting', 4, /cityName/);

    const pending = (await app.get<{ data: RequestView[] }>('/cities/requests', asOperator())).body.data.filter((request) => request.cityId !== 1);
    expect(pending.map((request) => request.id).sort((a, b) => a - b)).toEqual(
      [requestId('cities_new_waiting', 3), requestId('cities_corners_waiting', 2), requestId('cities_other_waiting', 3)].sort((a, b) => a - b),
    );
    // The rejected create with the injected region name cannot be approved.
    const mallory = rejected.get(requestId('cities_new_waiting', 2))!;
    const approve = await app.post(`/cities/approval/create/${mallory.cityId}`, undefined, asOperator());
    expect(approve.status).toBeGreaterThanOrEqual(400);
    // The region of ±1e300 blocks nobody: a new request far from every city is accepted.
    const player = newPlayer();
    const gameServerKey = await app.createApiKey(['game-server']);
    const created = await app.post('/cities/create', {
      usertoken: await app.issueUserKey(gameServerKey, player.uuid, player.mcid),
      cityName: 'After Far',
      cityNameKana: 'あふたー',
      corners: square(20_000, 20_000),
      count: 100,
      recaptcha: 'pass',
    });
    expect(created.status).toBe(201);
  });

  it('an achievement defined otherwise here gets a new id (reported) and its unlocks go with it', async () => {
    expect(real.renumbered.filter((entry) => entry.table === 'jaoSuperAchievement2_Type')).toEqual([{ table: 'jaoSuperAchievement2_Type', id: 1, newId: 2 }]);
    const unlocked = await app.get<{ data: Array<{ id: number; title: string }> }>(`/users/achievements/${alice.uuid}`);
    expect(unlocked.body.data.map(({ id, title }) => ({ id, title }))).toEqual([
      { id: 2, title: 'First login' },
      { id: 5, title: 'Fifth' },
    ]);
    expect(real.problems.find((entry) => entry.table === 'jaoSuperAchievement2' && String(entry.id).endsWith('/99'))?.reason).toMatch(/not in the source's catalogue/);
  });

  it('a second run changes nothing and reports the same mappings', async () => {
    const again = (await cli('--from', source.url)).report;
    for (const [table, counts] of Object.entries(again.tables)) {
      const before = real.tables[table];
      expect({ table, read: counts.read, imported: counts.imported, sourceRows: counts.sourceRows }).toEqual({ table, read: before.read, imported: 0, sourceRows: before.sourceRows });
    }
    expect(again.requests).toEqual(real.requests);
    expect(again.renumbered).toEqual(real.renumbered);
  });

  describe('the source password', () => {
    const password = 'p/a@s#s:w?o%rd';
    const user = `imp_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    let admin: Awaited<ReturnType<typeof createConnection>>;

    beforeAll(async () => {
      admin = await createConnection(MYSQL_ADMIN_URL);
      for (const host of ['%', 'localhost']) {
        await admin.query(`CREATE USER '${user}'@'${host}' IDENTIFIED BY ?`, [password]);
        await admin.query(`GRANT SELECT ON \`${source.name}\`.* TO '${user}'@'${host}'`);
      }
    });

    afterAll(async () => {
      for (const host of ['%', 'localhost']) {
        await admin.query(`DROP USER IF EXISTS '${user}'@'${host}'`);
      }
      await admin.end();
    });

    const leaks = (output: string): string[] => [password, encodeURIComponent(password), 'w?o%rd', 's#s'].filter((spelling) => output.includes(spelling));

    it('comes from ORIGINAL_DB_PASSWORD, --password-file or the URL (even unencoded), and is in no output', async () => {
      const { host } = new URL(MYSQL_ADMIN_URL);
      const bare = `mysql://${user}@${host}/${source.name}`;
      const file = join(workDir, 'password');
      writeFileSync(file, `${password}\n`, { mode: 0o600 });
      const runs = [
        await runCli(['import:original', '--from', bare, '--dry-run', '--json'], { ...env(), ORIGINAL_DB_PASSWORD: password }),
        await runCli(['import:original', '--from', bare, '--password-file', file, '--dry-run'], env()),
        await runCli(['import:original', '--from', `mysql://${user}:${password}@${host}/${source.name}`, '--dry-run'], env()),
        await runCli(['import:original', '--from', `mysql://${user}:${encodeURIComponent(password)}@${host}/${source.name}`, '--dry-run'], env()),
      ];
      for (const run of runs) {
        expect({ code: run.code, leaks: leaks(run.stdout + run.stderr) }).toEqual({ code: 0, leaks: [] });
      }
      expect(JSON.parse(runs[0].stdout)).toMatchObject({ dryRun: true, tables: { login: { read: LOGIN_ROWS } } });
    });

    it('a wrong password, a wrong database or a URL it cannot read: exit 2, one line, no password', async () => {
      const { host } = new URL(MYSQL_ADMIN_URL);
      const wrong = `${password}x`;
      const runs = [
        await runCli(['import:original', '--from', `mysql://${user}:${wrong}@${host}/${source.name}`], env()),
        await runCli(['import:original', '--from', `mysql://${user}@${host}/${source.name}`, '--json'], { ...env(), ORIGINAL_DB_PASSWORD: wrong }),
        await runCli(['import:original', '--from', `mysql://${user}:${password}@${host}/no_such_${source.name}`], env()),
        await runCli(['import:original', '--from', `mysql://${user}:${password}@/${source.name}`], env()),
        await runCli(['import:original', '--from', `mysql://${user}:${password}`], env()),
        await runCli(['import:original', '--from', `mysql://${user}@${host}/${source.name}`, '--password-file', join(workDir, 'missing')], env()),
      ];
      for (const run of runs) {
        expect({ code: run.code, leaks: leaks(run.stdout + run.stderr), lines: (run.stdout + run.stderr).trim().split('\n').length }).toEqual({ code: 2, leaks: [], lines: 1 });
      }
      expect(runs[0].stderr).toMatch(/refused the user name or password/);
      expect(runs[2].stderr).toMatch(/(no such database|refused)/);
    });
  });
});

/** Runs one statement on the target through its own driver (SQLite file or MariaDB). */
async function execTarget(url: string, sql: string, parameters: unknown[]): Promise<void> {
  if (url.startsWith('sqlite:')) {
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(url.slice('sqlite:'.length), { fileMustExist: true, timeout: 5000 });
    try {
      db.prepare(sql).run(...parameters);
    } finally {
      db.close();
    }
    return;
  }
  const connection = await createConnection(url);
  try {
    await connection.query(sql, parameters);
  } finally {
    await connection.end();
  }
}

/** A `SELECT COUNT(*) AS n` on the target through its own driver. */
async function countTarget(url: string, sql: string): Promise<number> {
  if (url.startsWith('sqlite:')) {
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      return Number((db.prepare(sql).get() as { n: number }).n);
    } finally {
      db.close();
    }
  }
  const connection = await createConnection(url);
  try {
    const [rows] = await connection.query(sql);
    return Number((rows as Array<{ n: number }>)[0].n);
  } finally {
    await connection.end();
  }
}
