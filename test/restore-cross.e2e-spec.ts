import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { liveFingerprint, seedCommunity, viewThroughApi } from './support/backup-data';
import { runCli } from './support/run-cli';
import { TestApp } from './support/test-app';
import { createTestDatabase, testDatabaseKind } from './support/test-database';

/**
 * Backups that restore anywhere: SQLite → MariaDB (how a community outgrows SQLite) and MariaDB →
 * SQLite, each read back through the API of a real service. Both directions need both
 * databases, so they run in the MariaDB run (TEST_DATABASE=mysql); the SQLite run covers the old
 * `VACUUM INTO` file.
 */
const onMysqlRun = testDatabaseKind === 'mysql' ? describe : describe.skip;
const onSqliteRun = testDatabaseKind === 'sqlite' ? describe : describe.skip;

onMysqlRun('restore across databases (e2e, SQLite and MariaDB)', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'community-cross-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('SQLite → MariaDB → SQLite: the same cities, users, events and sign-ins through the API', async () => {
    const sqlite = await createTestDatabase('sqlite');
    const mysql = await createTestDatabase('mysql');
    const back = await createTestDatabase('sqlite');
    try {
      const source = await TestApp.start({}, { database: sqlite });
      const community = await seedCommunity(source, { cityName: 'Outgrown Town 🌸' });
      const view = await viewThroughApi(source, community);
      const fromSqlite = join(dir, 'from-sqlite.backup');
      expect((await runCli(['backup', '--out', fromSqlite], { DATABASE_URL: sqlite.url })).code).toBe(0);
      await source.stop({ keepDatabase: true });

      // Into an empty MariaDB database (nothing to keep).
      const restored = await runCli(['restore', '--from', fromSqlite, '--json'], { DATABASE_URL: mysql.url });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      expect(JSON.parse(restored.stdout)).toMatchObject({ previous: null });
      const onMysql = await TestApp.start({}, { database: mysql });
      const fromMysql = join(dir, 'from-mysql.backup');
      try {
        expect(await viewThroughApi(onMysql, community)).toEqual(view);
        const signIn = await onMysql.get('/club/token', { query: { username: community.clubUser.mcid, password: community.clubUser.password, recaptcha: 'pass' } });
        expect(signIn.status).toBe(200);
        // MariaDB → SQLite, while the MariaDB service runs (the backup is online).
        expect((await runCli(['backup', '--out', fromMysql], { DATABASE_URL: mysql.url })).code).toBe(0);
      } finally {
        await onMysql.stop({ keepDatabase: true });
      }
      const home = await runCli(['restore', '--from', fromMysql, '--json'], { DATABASE_URL: back.url });
      expect(home.code).toBe(0);
      const onSqlite = await TestApp.start({}, { database: back });
      try {
        expect(await viewThroughApi(onSqlite, community)).toEqual(view);
      } finally {
        await onSqlite.stop({ keepDatabase: true });
      }
    } finally {
      await Promise.all([sqlite.drop(), mysql.drop(), back.drop()]);
    }
  }, 180_000);

  it('rows MariaDB cannot hold: --check lists every one against the configured MariaDB, and the restore refuses naming each, changing nothing', async () => {
    const sqlite = await createTestDatabase('sqlite');
    const mysql = await createTestDatabase('mysql');
    try {
      const source = await TestApp.start({}, { database: sqlite });
      const community = await seedCommunity(source);
      await source.stop({ keepDatabase: true });
      // What SQLite keeps and MariaDB's columns do not: a 20-character game id (varchar(16)), a
      // corner beyond a 32-bit integer, a summary over TEXT's 65,535 bytes.
      const db = new Database(sqlite.url.slice('sqlite:'.length));
      db.prepare('UPDATE players SET mcid = ? WHERE uuid = ?').run('x'.repeat(20), community.players[1].uuid);
      db.prepare('UPDATE cities SET min_x = ?, summary = ? WHERE id = ?').run(2 ** 40, 'あ'.repeat(30_000), community.cityId);
      db.close();
      const file = join(dir, 'odd.backup');
      expect((await runCli(['backup', '--out', file], { DATABASE_URL: sqlite.url })).code).toBe(0);

      // The target has its schema (a server ran once), and some data of its own.
      const target = await TestApp.start({}, { database: mysql });
      await target.createApiKey(['operator'], 'target-own-key');
      await target.stop({ keepDatabase: true });

      const expected = [
        expect.objectContaining({ row: `players uuid=${community.players[1].uuid}`, column: 'mcid', reason: expect.stringMatching(/20 characters; the column holds 16/) }),
        expect.objectContaining({ row: `cities id=${community.cityId}`, column: 'summary', reason: expect.stringMatching(/90000 bytes; the column holds 65535/) }),
        expect.objectContaining({ row: `cities id=${community.cityId}`, column: 'min_x', reason: expect.stringMatching(/1099511627776 is outside/) }),
      ];
      const check = await runCli(['restore', '--check', file, '--json'], { DATABASE_URL: mysql.url });
      expect(check.code).toBe(2);
      const checked = JSON.parse(check.stdout) as { problems: unknown[] };
      expect(checked.problems).toEqual(expect.arrayContaining(expected));
      expect(checked.problems).toHaveLength(3);

      const before = await liveFingerprint(mysql);
      const refused = await runCli(['restore', '--from', file, '--json'], { DATABASE_URL: mysql.url });
      expect(refused.code).toBe(2);
      const error = (JSON.parse(refused.stdout) as { error: string }).error;
      expect(error).toMatch(/^Restore refused: 3 rows of the backup cannot be held by this database/);
      expect(error).toContain(`players uuid=${community.players[1].uuid} column mcid`);
      expect(error).toContain(`cities id=${community.cityId} column min_x`);
      expect(error).toContain(`cities id=${community.cityId} column summary`);
      expect(await liveFingerprint(mysql)).toBe(before);

      // The same file restores into SQLite, which holds all of it.
      const other = await createTestDatabase('sqlite');
      try {
        expect((await runCli(['restore', '--from', file], { DATABASE_URL: other.url })).code).toBe(0);
      } finally {
        await other.drop();
      }
    } finally {
      await Promise.all([sqlite.drop(), mysql.drop()]);
    }
  }, 180_000);
});

onSqliteRun('restore of an old VACUUM INTO copy (e2e, SQLite)', () => {
  it('loads into SQLite through the scratch file (migrated, checked, swapped), and the data reads back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'community-legacy-'));
    const source = await createTestDatabase('sqlite');
    const target = await createTestDatabase('sqlite');
    try {
      const app = await TestApp.start({}, { database: source });
      const community = await seedCommunity(app);
      // The copy is older than evidence pictures: they are left out of the comparison.
      const view = await viewThroughApi(app, community, { evidence: false });
      // An old copy: no revocation list, no console sessions, nothing of any later migration. Every
      // migration from ApiKeyRevocations1764100000000 on is undone (their own down()), so a new
      // migration never has to be unpicked here by hand; the restore's migrations bring them back.
      const lastMigration = async (): Promise<number> => Number((await app.dataSource.query<Array<{ last: number | string }>>('SELECT MAX(timestamp) AS last FROM migrations'))[0].last);
      while ((await lastMigration()) >= 1764100000000) {
        await app.dataSource.undoLastMigration();
      }
      const copy = join(dir, 'old.sqlite');
      await app.dataSource.query('VACUUM INTO ?', [copy]);
      await app.stop({ keepDatabase: true });

      const restored = await runCli(['restore', '--from', copy, '--json'], { DATABASE_URL: target.url });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      const again = await TestApp.start({}, { database: target });
      try {
        expect(await viewThroughApi(again, community, { evidence: false })).toEqual(view);
      } finally {
        await again.stop({ keepDatabase: true });
      }
    } finally {
      await Promise.all([source.drop(), target.drop()]);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
