import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { TableSchema } from '../src/backup/database-access';
import { migrate } from '../src/backup/migration-levels';
import { MysqlReader } from '../src/backup/mysql-access';
import { SqliteReader } from '../src/backup/sqlite-access';
import { liveFingerprint, relatedDatabases, seedCommunity, viewThroughApi } from './support/backup-data';
import { atSchema, cutFile, readBackupParts, withoutTable, writeBackupParts } from './support/backup-files';
import { recordEvent } from './support/events';
import { runCli } from './support/run-cli';
import { TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase, testDatabaseKind } from './support/test-database';

/**
 * What this version's migrations make up to and including `migration` (all of them when
 * undefined), on the suite's kind of database: the tables with their columns, and the primary keys
 * (values as text, JSON) of the rows they seed, by table.
 */
async function schemaAt(migration?: string): Promise<{ tables: TableSchema[]; seeded: Map<string, Set<string>> }> {
  const reference = await createTestDatabase();
  try {
    await migrate(reference.url, migration);
    const reader = testDatabaseKind === 'sqlite' ? SqliteReader.open(reference.url.replace(/^sqlite:/, ''), { snapshot: false }) : await MysqlReader.open(reference.url, { snapshot: false });
    try {
      const tables = await reader.tables();
      const seeded = new Map<string, Set<string>>();
      for (const table of tables.filter((candidate) => candidate.primaryKey.length > 0)) {
        const keys = new Set<string>();
        for await (const values of reader.rows(table.name, table.primaryKey)) {
          keys.add(JSON.stringify(values.map(String)));
        }
        seeded.set(table.name, keys);
      }
      return { tables, seeded };
    } finally {
      await reader.close();
    }
  } finally {
    await reference.drop();
  }
}

interface FeedPage {
  data: Array<{ id: number; type: string; data: { city: { id: number } } }>;
  next: number;
}

/**
 * `restore` on the suite's database, from a backup of the same kind (the cross-database
 * directions are in restore-cross.e2e-spec.ts): what comes back, what a restore does to
 * credentials and event ids, --undo, and every refusal leaving the live data as it was.
 */
describe(`restore from a backup (e2e, ${testDatabaseKind})`, () => {
  let dir: string;
  let database: TestDatabase;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'community-restore-'));
    database = await createTestDatabase();
    file = join(dir, 'community.backup');
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  const cli = (args: string[]) => runCli([...args, '--json'], { DATABASE_URL: database.url });

  it('refuses while the server runs; then restores: data as backed up, club and console sessions ended, a key revoked since stays revoked, event ids past every id seen; --undo puts it back', async () => {
    const app = await TestApp.start({}, { database });
    const community = await seedCommunity(app);
    const operator = { 'x-api-key': community.operatorKey };
    const laterRevoked = await app.createApiKey(['operator'], 'revoked-after-backup');
    const signedIn = await app.get('/club/@me', { query: { usertoken: community.clubUser.usertoken } });
    expect(signedIn.status).toBe(200);
    // An operator signed in to the console: the session is in the backup.
    const consoleSignIn = await app.post('/console-session', undefined, { headers: operator });
    const consoleCookie = String(consoleSignIn.headers.get('set-cookie')).split(';')[0];
    expect((await app.get('/cities/requests', { headers: { cookie: consoleCookie } })).status).toBe(200);
    const backedUp = await viewThroughApi(app, community);

    const backup = await cli(['backup', '--out', file]);
    expect(backup.code).toBe(0);

    // After the backup: more events, a key revoked.
    const lost: number[] = [];
    for (let i = 6; i <= 8; i += 1) {
      lost.push(await recordEvent(app, 'city.changed', { request: null, city: { id: i } }));
    }
    expect((await cli(['apikey:revoke', '--name', 'revoked-after-backup'])).code).toBe(0);
    const seen = (await app.get<FeedPage>('/events', { query: { after: 0, limit: 500 }, headers: operator })).body;
    const cursor = seen.next;

    const refused = await cli(['restore', '--from', file]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toEqual({ error: expect.stringMatching(/^Restore refused: .*in use.*stop/) });
    expect((await app.get<FeedPage>('/events', { query: { after: 0, limit: 500 }, headers: operator })).body.data.map((event) => event.id)).toEqual(seen.data.map((event) => event.id));
    await app.stop({ keepDatabase: true });

    const startedAt = Date.now();
    const restored = await cli(['restore', '--from', file]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const result = JSON.parse(restored.stdout) as { restored: string; lastEventId: number; previous: string };
    expect(result.lastEventId).toBeGreaterThanOrEqual(startedAt);
    if (testDatabaseKind === 'sqlite') {
      expect(existsSync(result.previous)).toBe(true);
      expect(readdirSync(dirname(result.previous)).filter((name) => name.includes('restore-scratch'))).toEqual([]);
    } else {
      expect(await relatedDatabases(database)).toEqual([result.previous]);
    }

    const again = await TestApp.start({}, { database });
    try {
      expect(await viewThroughApi(again, community)).toEqual(backedUp);
      // Every club session ended; signing in again works.
      expect((await again.get('/club/@me', { query: { usertoken: community.clubUser.usertoken } })).status).toBe(401);
      const token = await again.get<{ usertoken: string }>('/club/token', { query: { username: community.clubUser.mcid, password: community.clubUser.password, recaptcha: 'pass' } });
      expect(token.status).toBe(200);
      // The console's session ended too.
      expect((await again.get('/cities/requests', { headers: { cookie: consoleCookie } })).status).toBe(401);
      // The key revoked after the backup stays revoked; the others work.
      expect((await again.get('/events', { query: { after: 0 }, headers: { 'x-api-key': laterRevoked } })).status).toBe(401);
      expect((await again.get('/events', { query: { after: 0 }, headers: operator })).status).toBe(200);
      // A consumer holding the cursor from before gets the first event written after the restore.
      const next = await recordEvent(again, 'city.changed', { request: null, city: { id: 11 } });
      expect(next).toBeGreaterThan(cursor);
      const page = (await again.get<FeedPage>('/events', { query: { after: cursor }, headers: operator })).body;
      expect(page.data.map((event) => [event.id, event.data.city.id])).toEqual([[next, 11]]);
    } finally {
      await again.stop({ keepDatabase: true });
    }

    const undone = await cli(['restore', '--undo']);
    expect(undone.code).toBe(0);
    const back = await TestApp.start({}, { database });
    try {
      const events = (await back.get<FeedPage>('/events', { query: { after: 0, limit: 500 }, headers: operator })).body;
      expect(events.data.map((event) => event.id)).toEqual(seen.data.map((event) => event.id));
      // Event ids move on after an undo too.
      expect(await recordEvent(back, 'city.changed', { request: null, city: { id: 12 } })).toBeGreaterThan(result.lastEventId);
      expect((await back.get('/events', { query: { after: 0 }, headers: { 'x-api-key': laterRevoked } })).status).toBe(401);
    } finally {
      await back.stop({ keepDatabase: true });
    }
  }, 240_000);

  it('refuses, exit 2 with one line, and leaves the live data exactly as it was: missing, junk, cut at 40 %, damaged, foreign, partial, newer, another database\'s file, a dump with a shell line', async () => {
    const parts = readBackupParts(file);
    const variant = (name: string, make: (path: string) => void): string => {
      const path = join(dir, name);
      make(path);
      return path;
    };
    const damaged = readBackupParts(file);
    const playersRow = damaged.body.indexOf('{"table":"players"}') + 1;
    expect(damaged.body[playersRow]).toMatch(/^\[/);
    damaged.body[playersRow] = damaged.body[playersRow].replace(/"p\d+_/, '"q0_');
    const foreign = readBackupParts(file);
    foreign.manifest.tables.push({ name: 'wp_users', columns: [{ name: 'id', type: 'integer', nullable: false }], primaryKey: ['id'], rows: 0, sha256: '' });
    foreign.body.splice(foreign.body.length - 1, 0, '{"table":"wp_users"}', '[1]');
    const marker = join(dir, 'shell-ran');
    const cases: Array<[string, string, RegExp]> = [
      ['missing', join(dir, 'missing.backup'), /does not exist/],
      ['junk', variant('junk.bin', (path) => writeFileSync(path, 'not a backup at all\n'.repeat(100))), /not a backup of this service/],
      ['cut at 40 %', variant('cut.backup', (path) => cutFile(file, path, 0.4)), /truncated/],
      ['a damaged row', variant('damaged.backup', (path) => writeBackupParts(path, damaged)), /players does not match its checksum/],
      ['another service', variant('other.backup', (path) => writeFileSync(path, gzipSync('{"format":"other-service-backup","formatVersion":1}\n{"end":true}\n'))), /not a backup of this service/],
      ['a partial schema', variant('partial.backup', (path) => writeBackupParts(path, withoutTable(parts, 'players'), { recount: true })), /lacks table players/],
      ['a foreign table', variant('foreign.backup', (path) => writeBackupParts(path, foreign, { recount: true })), /wp_users.*not part of this service's schema/],
      [
        'a newer version',
        variant('newer.backup', (path) => writeBackupParts(path, { ...parts, manifest: { ...parts.manifest, migrations: [...parts.manifest.migrations, 'FromTheFuture1899999999999'], lastMigration: 'FromTheFuture1899999999999' } })),
        /newer version.*FromTheFuture1899999999999/,
      ],
      testDatabaseKind === 'sqlite'
        ? ['a mariadb-dump file', variant('dump.sql', (path) => writeFileSync(path, `-- MariaDB dump 10.19\n\\! touch ${marker}\nCREATE TABLE t (id int);\n`)), /mariadb-dump file: it restores only into MariaDB/]
        : ['a SQLite file', variant('copy.sqlite', (path) => writeFileSync(path, Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(4080)]))), /SQLite database file: it restores only into SQLite/],
      ['a dump with a shell line', variant('shell.sql', (path) => writeFileSync(path, `-- MariaDB dump 10.19\n\\! touch ${marker}\nDROP TABLE IF EXISTS players;\n`)), testDatabaseKind === 'sqlite' ? /mariadb-dump/ : /client command/],
    ];
    const before = await liveFingerprint(database);
    for (const [what, from, message] of cases) {
      const result = await cli(['restore', '--from', from]);
      expect({ what, code: result.code }).toEqual({ what, code: 2 });
      expect(result.stdout.trim().split('\n')).toHaveLength(1);
      expect({ what, error: (JSON.parse(result.stdout) as { error: string }).error }).toEqual({ what, error: expect.stringMatching(message) });
      expect({ what, error: (JSON.parse(result.stdout) as { error: string }).error }).toEqual({ what, error: expect.not.stringContaining('\n') });
      expect({ what, live: await liveFingerprint(database) }).toEqual({ what, live: before });
      expect({ what, left: await relatedDatabases(database) }).toEqual({ what, left: expect.not.arrayContaining([expect.stringMatching(/_restore$/)]) });
      if (from !== join(dir, 'missing.backup') && what !== 'junk' && !what.includes('dump') && !what.includes('file')) {
        // restore --check refuses the same files without any database.
        const check = await runCli(['restore', '--check', from, '--json'], { DATABASE_URL: undefined });
        expect({ what, code: check.code }).toEqual({ what, code: 2 });
      }
    }
    expect(existsSync(marker)).toBe(false);
    if (testDatabaseKind === 'sqlite') {
      expect(readdirSync(dirname(database.url.slice('sqlite:'.length))).filter((name) => name.includes('restore-scratch'))).toEqual([]);
    }
    // Plain text output: the same one line on stderr.
    const plain = await runCli(['restore', '--from', join(dir, 'cut.backup')], { DATABASE_URL: database.url });
    expect(plain.code).toBe(2);
    expect(plain.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Restore refused: .*truncated/)]);
  }, 240_000);

  (testDatabaseKind === 'mysql' ? it : it.skip)('loads an old mariadb-dump file statement by statement (never through the client); one cut at 40 % or with a shell line is refused and changes nothing', async () => {
    const source = await createTestDatabase();
    const app = await TestApp.start({}, { database: source });
    const dump = join(dir, 'old.sql');
    let community;
    let view;
    try {
      community = await seedCommunity(app, { cityName: 'Dumped Town' });
      view = await viewThroughApi(app, community);
      const url = new URL(source.url);
      execFileSync('sh', ['-c', `mariadb-dump --single-transaction --hex-blob --default-character-set=utf8mb4 -h ${url.hostname} -P ${url.port || '3306'} -u root ${url.pathname.slice(1)} > ${dump}`]);
    } finally {
      await app.stop({ keepDatabase: true });
      await source.drop();
    }
    const marker = join(dir, 'dump-shell-ran');
    const lines = readFileSync(dump, 'utf8').split('\n');
    writeFileSync(join(dir, 'shell.sql'), [...lines.slice(0, 20), `\\! touch ${marker}`, ...lines.slice(20)].join('\n'));
    cutFile(dump, join(dir, 'cut.sql'), 0.4);
    const before = await liveFingerprint(database);
    for (const [bad, message] of [
      ['shell.sql', /client command/],
      ['cut.sql', /cut short/],
    ] as const) {
      const refused = await cli(['restore', '--from', join(dir, bad)]);
      expect({ bad, code: refused.code }).toEqual({ bad, code: 2 });
      expect(JSON.parse(refused.stdout)).toEqual({ error: expect.stringMatching(message) });
      expect(await liveFingerprint(database)).toBe(before);
    }
    expect(existsSync(marker)).toBe(false);

    const restored = await cli(['restore', '--from', dump]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const again = await TestApp.start({}, { database });
    try {
      expect(await viewThroughApi(again, community)).toEqual(view);
    } finally {
      await again.stop({ keepDatabase: true });
    }
  }, 180_000);

  it('a backup from an earlier release (a migration behind) loads at its own schema level and is migrated after', async () => {
    const parts = readBackupParts(file);
    // A backup taken before ConsoleSessions1764100100000 (the console_sessions table): it lacks that
    // migration, the name-key correction after it, and every later migration with whatever it
    // added (tables, wherever SCHEMA_TABLES lists them, and columns). What it holds is read from a
    // database the migrations made at that level, so a new migration needs nothing here.
    const level = parts.manifest.migrations.indexOf('ConsoleSessions1764100100000');
    const migrations = parts.manifest.migrations.slice(0, level);
    expect(parts.manifest.migrations.slice(level, level + 2)).toEqual(['ConsoleSessions1764100100000', 'CityNameKeySharpS1764200000000']);
    // Rows a later migration seeds (a data topic's version, say) are not in it either: that migration adds them after the load.
    const [then, now] = [await schemaAt(migrations.at(-1)), await schemaAt()];
    const seededLater = new Map([...now.seeded].map(([table, keys]) => [table, new Set([...keys].filter((key) => !then.seeded.get(table)?.has(key)))]));
    const older = atSchema(parts, then.tables, seededLater);
    expect(older.manifest.tables.map((table) => table.name)).not.toContain('console_sessions');
    older.manifest.migrations = migrations;
    older.manifest.lastMigration = migrations.at(-1)!;
    const path = join(dir, 'older.backup');
    writeBackupParts(path, older, { recount: true });
    const target = await createTestDatabase();
    try {
      const restored = await runCli(['restore', '--from', path, '--json'], { DATABASE_URL: target.url });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      const app = await TestApp.start({}, { database: target });
      try {
        expect(await app.dataSource.showMigrations()).toBe(false);
        expect(await app.dataSource.query('SELECT COUNT(*) AS n FROM console_sessions')).toEqual([{ n: expect.anything() }]);
        expect((await app.get('/cities')).status).toBe(200);
      } finally {
        await app.stop({ keepDatabase: true });
      }
    } finally {
      await target.drop();
    }
  }, 120_000);

  it('--check verifies a good file without any database, and --undo with nothing kept is refused', async () => {
    const check = await runCli(['restore', '--check', file], { DATABASE_URL: undefined });
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^Check passed: .* complete (sqlite|mysql) backup/);
    const fresh = await createTestDatabase();
    try {
      const undo = await runCli(['restore', '--undo', '--json'], { DATABASE_URL: fresh.url });
      expect(undo.code).toBe(2);
      expect(JSON.parse(undo.stdout)).toEqual({ error: expect.stringMatching(/nothing to undo/) });
    } finally {
      await fresh.drop();
    }
  }, 120_000);
});
