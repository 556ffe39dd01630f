import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBackupRows } from '../src/backup/backup-file';
import type { BackupManifest, PortableValue } from '../src/backup/backup-format';
import { BOOKKEEPING_TABLES, SCHEMA_TABLES } from '../src/backup/backup-tables';
import { runCli } from './support/run-cli';
import { newPlayer, TestApp } from './support/test-app';
import { testDatabaseKind } from './support/test-database';

/** Every row of a backup file, by table (test files are small). */
async function readBackup(path: string): Promise<{ manifest: BackupManifest; rows: Map<string, PortableValue[][]> }> {
  const rows = new Map<string, PortableValue[][]>();
  const reader = readBackupRows(path);
  for (;;) {
    const next = await reader.next();
    if (next.done) {
      return { manifest: next.value, rows };
    }
    rows.set(next.value.table.name, [...(rows.get(next.value.table.name) ?? []), next.value.values]);
  }
}

describe(`backup while the server writes (e2e, ${testDatabaseKind})`, () => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    app = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'community-backup-'));
  });

  afterAll(async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = async (table: string): Promise<number> => Number((await app.dataSource.query<Array<{ n: number }>>(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n);

  it('the schema after the migrations has exactly the tables the backup knows (a new table fails this until it is backed up)', async () => {
    const sql =
      testDatabaseKind === 'sqlite'
        ? "SELECT name FROM sqlite_master WHERE type = 'table'"
        : "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'";
    const tables = (await app.dataSource.query<Array<{ name: string }>>(sql)).map((row) => row.name).filter((name) => !BOOKKEEPING_TABLES.has(name));
    expect(tables.sort()).toEqual([...SCHEMA_TABLES].sort());
  });

  it('writes one file from one snapshot under continuous writes, mode 0600, verified; every table with its rows and checksum', async () => {
    const gameServerKey = await app.createApiKey(['game-server']);
    // Writers that keep going for the whole backup: each write adds a player and its user key in one transaction.
    let writing = true;
    let written = 0;
    const writers = Array.from({ length: 3 }, async () => {
      while (writing) {
        const result = await app.post('/game-server/userkeys', newPlayer(), { headers: { 'x-api-key': gameServerKey } });
        if (result.status === 201) {
          written += 1;
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = await count('user_keys');
    const writtenBefore = written;
    const out = join(dir, 'online.backup');
    const backup = await runCli(['backup', '--out', out, '--json'], { DATABASE_URL: app.database.url });
    const writtenDuring = written - writtenBefore;
    writing = false;
    await Promise.all(writers);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout)).toEqual({ backup: out, bytes: statSync(out).size, tables: SCHEMA_TABLES.length, rows: expect.any(Number), lastMigration: expect.any(String), source: testDatabaseKind });
    expect(writtenDuring).toBeGreaterThan(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);

    const { manifest, rows } = await readBackup(out);
    expect(manifest).toMatchObject({ format: 'community-service-backup', formatVersion: 1, source: testDatabaseKind, serviceVersion: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(manifest.lastMigration).toBe(manifest.migrations.at(-1));
    expect(manifest.tables.map((table) => table.name)).toEqual([...SCHEMA_TABLES]);
    const keys = manifest.tables.find((table) => table.name === 'user_keys')!;
    expect(keys.rows).toBeGreaterThanOrEqual(before);
    expect(keys.rows).toBeLessThanOrEqual(await count('user_keys'));
    expect(keys.sha256).toMatch(/^[0-9a-f]{64}$/);
    // One snapshot: every user key's player is in the file (they are written in one transaction).
    const playerColumn = keys.columns.findIndex((column) => column.name === 'player_uuid');
    const players = new Set((rows.get('players') ?? []).map((row) => row[0]));
    expect((rows.get('user_keys') ?? []).filter((row) => !players.has(row[playerColumn]))).toEqual([]);
    // Dates travel as ISO UTC; the big event-sequence value as a number.
    const created = keys.columns.findIndex((column) => column.name === 'created_at');
    expect(rows.get('user_keys')?.[0]?.[created]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const check = await runCli(['restore', '--check', out, '--json'], { DATABASE_URL: app.database.url });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ valid: true, tables: SCHEMA_TABLES.length, problems: [] });
  });

  it('refuses (exit 2, nothing written) an existing file and a missing folder; a database it cannot reach fails without a file', async () => {
    const out = join(dir, 'twice.backup');
    writeFileSync(out, 'keep me');
    const again = await runCli(['backup', '--out', out, '--json'], { DATABASE_URL: app.database.url });
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stdout)).toEqual({ error: expect.stringMatching(/^Backup refused: .*exists already/) });
    const folder = await runCli(['backup', '--out', join(dir, 'nope', 'x.backup'), '--json'], { DATABASE_URL: app.database.url });
    expect(folder.code).toBe(2);
    expect(JSON.parse(folder.stdout)).toEqual({ error: expect.stringMatching(/does not exist/) });
  });
});

describe('backup of an unreachable MariaDB (e2e)', () => {
  it('fails (exit 1) naming the cause, never the password, and leaves no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'community-backup-'));
    try {
      const result = await runCli(['backup', '--out', join(dir, 'x.backup')], { DATABASE_URL: 'mysql://community:S3cret-pw@127.0.0.1:1/community_prod' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Backup failed: .*ECONNREFUSED/);
      expect(result.stdout + result.stderr).not.toContain('S3cret-pw');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
