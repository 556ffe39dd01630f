import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { readManifest } from '../../src/backup/backup-file';
import { BackupManifest, encodeValue, rowLine, TableDigest } from '../../src/backup/backup-format';
import type { DatabaseReader } from '../../src/backup/database-access';
import { MysqlReader } from '../../src/backup/mysql-access';
import { SqliteReader } from '../../src/backup/sqlite-access';
import { relatedDatabases, seedCommunity } from '../support/backup-data';
import { runCli } from '../support/run-cli';
import { TestApp } from '../support/test-app';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/** Tables a restore changes on purpose (event ids moved on, sessions ended, revocations applied): compared with the backup only elsewhere. */
const CHANGED_BY_RESTORE = new Set(['event_seq', 'club_tokens', 'club_accounts', 'api_keys', 'api_key_revocations']);

/** Each table's checksum as the live database holds it now, computed the way a backup computes it. */
async function liveDigests(database: TestDatabase, manifest: BackupManifest): Promise<Map<string, string>> {
  const reader: DatabaseReader = database.url.startsWith('sqlite:')
    ? SqliteReader.open(database.url.slice('sqlite:'.length), { snapshot: true })
    : await MysqlReader.open(database.url, { snapshot: true });
  try {
    const present = new Set((await reader.tables()).map((table) => table.name));
    const digests = new Map<string, string>();
    for (const table of manifest.tables) {
      if (!present.has(table.name)) {
        digests.set(table.name, 'missing');
        continue;
      }
      const digest = new TableDigest();
      for await (const row of reader.rows(
        table.name,
        table.columns.map((column) => column.name),
      )) {
        digest.add(rowLine(row.map((value, index) => encodeValue(table.columns[index].type, value))));
      }
      digests.set(table.name, `${digest.rows}:${digest.hex}`);
    }
    return digests;
  } finally {
    await reader.close();
  }
}

function isBackup(digests: Map<string, string>, manifest: BackupManifest): boolean {
  return manifest.tables.every((table) => CHANGED_BY_RESTORE.has(table.name) || digests.get(table.name) === `${table.rows}:${table.sha256}`);
}

function sameAs(digests: Map<string, string>, old: Map<string, string>): boolean {
  return [...old].every(([name, digest]) => digests.get(name) === digest);
}

/** The restore CLI as an operator runs it, killed with SIGKILL after `delayMs` (or left to finish). */
function restoreKilledAfter(database: TestDatabase, from: string, delayMs: number): Promise<{ killed: boolean; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(__dirname, '..', '..', 'scripts', 'cli.js'), 'restore', '--from', from], {
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    let killed = false;
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, delayMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ killed: killed && code === null, code });
    });
  });
}

/** MariaDB drops a killed client's connections a moment later; a restore refuses until then. */
async function connectionsGone(database: TestDatabase): Promise<void> {
  if (database.url.startsWith('sqlite:')) {
    return;
  }
  const name = new URL(database.url).pathname.slice(1);
  const connection = await createConnection(database.url.replace(/\/[^/]*$/, '/'));
  try {
    for (let i = 0; i < 100; i += 1) {
      const [rows] = await connection.query<Array<{ n: number }> & import('mysql2').RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB LIKE ? AND ID <> CONNECTION_ID()",
        [`${name}%`],
      );
      if (Number(rows[0]?.n) === 0) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await connection.end();
  }
}

/** Bulk rows, so that the load takes long enough for kills to land in every phase. */
async function addBulk(database: TestDatabase, players: number, loginsEach: number): Promise<void> {
  const rows: Array<[string, string, string]> = [];
  const playerRows: Array<[string, string, string]> = [];
  for (let p = 0; p < players; p += 1) {
    const uuid = `00000000-0000-4000-8000-${p.toString(16).padStart(12, '0')}`;
    playerRows.push([uuid, `bulk${p}`, '2026-01-01 00:00:00.000']);
    for (let l = 0; l < loginsEach; l += 1) {
      rows.push([uuid, `bulk${p}`, `2026-01-01 ${String(l % 24).padStart(2, '0')}:${String(l % 60).padStart(2, '0')}:00.${String(l).padStart(3, '0')}`]);
    }
  }
  if (database.url.startsWith('sqlite:')) {
    const db = new Database(database.url.slice('sqlite:'.length));
    const player = db.prepare('INSERT INTO players (uuid, mcid, created_at) VALUES (?, ?, ?)');
    const login = db.prepare('INSERT INTO login_records (player_uuid, mcid, logged_in_at) VALUES (?, ?, ?)');
    db.transaction(() => {
      playerRows.forEach((row) => player.run(...row));
      rows.forEach((row) => login.run(...row));
    })();
    db.close();
    return;
  }
  const connection = await createConnection(database.url);
  try {
    await connection.query('INSERT INTO players (uuid, mcid, created_at) VALUES ?', [playerRows]);
    for (let i = 0; i < rows.length; i += 5000) {
      await connection.query('INSERT INTO login_records (player_uuid, mcid, logged_in_at) VALUES ?', [rows.slice(i, i + 5000)]);
    }
  } finally {
    await connection.end();
  }
}

for (const kind of ['sqlite', 'mysql'] as const) {
  describe(`restore killed at random points (${kind})`, () => {
    let database: TestDatabase;
    let dir: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'community-restore-kill-'));
      database = await createTestDatabase(kind);
    });

    afterAll(async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('leaves the old data or the new, never a mix; a rerun completes and clears the scratch copy', async () => {
      const app = await TestApp.start({}, { database });
      await seedCommunity(app, { cityName: 'Backed Up Town' });
      await app.stop({ keepDatabase: true });
      await addBulk(database, 2000, 10);
      const file = join(dir, 'kill.backup');
      expect((await runCli(['backup', '--out', file], { DATABASE_URL: database.url })).code).toBe(0);
      const manifest = await readManifest(file);
      // The live data moves on after the backup: the old state differs from the backup's.
      const later = await TestApp.start({}, { database });
      await seedCommunity(later, { cityName: 'Later Town', kana: 'あとの', at: [50000, 50000] });
      await later.stop({ keepDatabase: true });

      // How long a whole restore takes here, then back to the old state.
      const started = Date.now();
      expect((await restoreKilledAfter(database, file, 600_000)).code).toBe(0);
      const duration = Date.now() - started;
      expect((await runCli(['restore', '--undo'], { DATABASE_URL: database.url })).code).toBe(0);
      let old = await liveDigests(database, manifest);
      expect(isBackup(old, manifest)).toBe(false);

      const outcomes: string[] = [];
      for (let i = 0; i < 8; i += 1) {
        const delay = Math.round(Math.random() * duration * 1.1);
        const run = await restoreKilledAfter(database, file, delay);
        await connectionsGone(database);
        const now = await liveDigests(database, manifest);
        const wasOld = sameAs(now, old);
        const isNew = isBackup(now, manifest);
        outcomes.push(`${delay} ms: ${run.killed ? 'killed' : `exit ${run.code}`}, ${wasOld ? 'old' : isNew ? 'new' : 'MIXED'}`);
        expect({ delay, state: wasOld || isNew ? 'whole' : 'mixed', outcomes }).toEqual({ delay, state: 'whole', outcomes });
        if (isNew) {
          expect((await runCli(['restore', '--undo'], { DATABASE_URL: database.url })).code).toBe(0);
          old = await liveDigests(database, manifest);
        }
      }
      process.stderr.write(`restore kills (${kind}, a whole restore took ${duration} ms):\n  ${outcomes.join('\n  ')}\n`);

      // A rerun completes, and leaves no scratch copy.
      const rerun = await runCli(['restore', '--from', file, '--json'], { DATABASE_URL: database.url });
      expect(rerun.stderr).toBe('');
      expect(rerun.code).toBe(0);
      expect(isBackup(await liveDigests(database, manifest), manifest)).toBe(true);
      if (kind === 'sqlite') {
        expect(readdirSync(dirname(database.url.slice('sqlite:'.length))).filter((name) => name.includes('restore-scratch'))).toEqual([]);
        expect(existsSync(database.url.slice('sqlite:'.length))).toBe(true);
      } else {
        expect((await relatedDatabases(database)).filter((name) => name.endsWith('_restore'))).toEqual([]);
      }
      const served = await TestApp.start({}, { database });
      try {
        expect((await served.get<{ data: Array<{ name: string }> }>('/cities')).body.data.map((city) => city.name)).toEqual(['Backed Up Town']);
      } finally {
        await served.stop({ keepDatabase: true });
      }
    }, 600_000);
  });
}
