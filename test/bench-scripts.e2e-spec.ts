import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { RowDataPacket } from 'mysql2';
import { createConnection } from 'mysql2/promise';
import { runCli } from './support/run-cli';
import { createTestDatabase, TestDatabase, testDatabaseKind } from './support/test-database';

/**
 * Scripts that write data ask first (docs/operations.md, Scripts that write data): by default
 * scripts/bench-user-lookups.js builds and removes a database of its own; a database it is pointed
 * at (DATABASE_URL or --database-url) is refused, unchanged, unless --yes-overwrite.
 */
jest.setTimeout(240_000);

const SCRIPT = join(__dirname, '..', 'scripts', 'bench-user-lookups.js');

function runScript(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { env: { ...process.env, ...env }, timeout: 200_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('scripts that write data (e2e)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url };
    // A few players with logins, the rows the script would give chat ids.
    const file = join(mkdtempSync(join(tmpdir(), 'bench-scripts-test-')), 'logins.csv');
    execFileSync(process.execPath, [join(__dirname, '..', 'scripts', 'generate-logins.js'), '--rows', '50', '--players', '10', '--out', file]);
    expect(await runCli(['import:logins', '--file', file, '--json'], env)).toMatchObject({ code: 0 });
    rmSync(dirname(file), { recursive: true, force: true });
  });

  afterAll(async () => {
    await database.drop();
  });

  /** How many players have a chat id, and how many there are. */
  async function chatIds(): Promise<{ players: number; linked: number }> {
    const sql = 'SELECT COUNT(*) AS players, COUNT(chatid) AS linked FROM players';
    if (testDatabaseKind === 'mysql') {
      const connection = await createConnection(database.url);
      const [rows] = await connection.query<RowDataPacket[]>(sql);
      await connection.end();
      return { players: Number(rows[0].players), linked: Number(rows[0].linked) };
    }
    const db = new Database(database.url.slice('sqlite:'.length), { readonly: true });
    const row = db.prepare(sql).get() as { players: number; linked: number };
    db.close();
    return { players: row.players, linked: row.linked };
  }

  it('refuses the database named by DATABASE_URL or --database-url (exit 2, its name shown without credentials, nothing changed) unless --yes-overwrite', async () => {
    const before = await chatIds();
    expect(before).toEqual({ players: expect.any(Number) as unknown, linked: 0 });
    expect(before.players).toBeGreaterThan(0);
    for (const [args, extra] of [
      [[], env],
      [['--database-url', database.url], { DATABASE_URL: undefined }],
    ] as Array<[string[], Record<string, string | undefined>]>) {
      const refused = await runScript(args, extra);
      expect({ args, code: refused.code, stdout: refused.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(refused.stderr).toContain('rewrites the chat ids');
      expect(refused.stderr).toContain('--yes-overwrite');
      expect(refused.stderr).not.toMatch(/root@/);
    }
    expect(await chatIds()).toEqual(before);
  });

  it('by default builds a database of its own, times the lookups on it and removes it', async () => {
    const scratchBefore = readdirSync(tmpdir()).filter((name) => name.startsWith('bench-user-lookups-'));
    const args = ['--players', '40', '--logins', '200', '--requests', '3', ...(testDatabaseKind === 'mysql' ? ['--target', 'mysql'] : [])];
    const run = await runScript(args, { DATABASE_URL: undefined });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) as unknown });
    expect(run.stdout).toMatch(/players sampled: [1-9]\d*/);
    expect(run.stdout).toMatch(/chatid 3 sequential requests/);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('bench-user-lookups-'))).toEqual(scratchBefore);
    if (testDatabaseKind === 'mysql') {
      const admin = await createConnection(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306');
      const [left] = await admin.query<RowDataPacket[]>("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'bench\\_lookups\\_%'");
      await admin.end();
      expect(left).toEqual([]);
    }
  });
});
