import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, createReadStream, existsSync, fsyncSync, linkSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { RowDataPacket } from 'mysql2';
import { createConnection } from 'mysql2/promise';
import { eventIdFloor } from '../events/event-ids';

/**
 * Restoring a backup (docs/backup-and-restore.md). Both databases end the same way: the backup's
 * data in place, and the event sequence moved past every id the replaced database may have
 * handed out, so a consumer holding a cursor from before the restore still gets every event
 * committed after it (ids jump; they never repeat).
 */

export interface RestoreResult {
  /** The database file, or the MySQL database name. */
  database: string;
  /** The id the next event will follow. */
  lastEventId: number;
  /** SQLite: where the replaced database was kept (null when there was none). */
  previous: string | null;
}

/** Opens the backup read-only and checks that it is a sound database of this service. */
function checkSqliteBackup(from: string): void {
  let copy: Database.Database;
  try {
    copy = new Database(from, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`${from} is not a readable SQLite database: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') {
      throw new Error(`${from} failed its integrity check: ${String(check)}`);
    }
    if (!copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'event_seq'").get()) {
      throw new Error(`${from} is not a backup of this service (no event_seq table)`);
    }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(from)) {
      throw error;
    }
    throw new Error(`${from} is not a readable SQLite database: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    copy.close();
  }
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * SQLite: the server must be stopped. Checks the backup, prepares a copy beside the database (event
 * sequence moved), then, holding the live database exclusively, keeps the old file under a new
 * name and renames the copy into place (one atomic step: a reader sees the old or the new file).
 *
 * "In use" is decided by SQLite itself: leaving WAL mode needs every other connection closed,
 * so a running server (or CLI) makes it fail with SQLITE_BUSY.
 */
export function restoreSqlite(databaseFile: string, from: string, now = new Date()): RestoreResult {
  const target = resolve(databaseFile);
  const source = resolve(from);
  if (!existsSync(source) || !statSync(source).isFile()) {
    throw new Error(`${source} does not exist`);
  }
  if (source === target) {
    throw new Error('the backup is the database itself; name a backup file');
  }
  checkSqliteBackup(source);
  if (!existsSync(dirname(target))) {
    throw new Error(`the folder ${dirname(target)} does not exist`);
  }
  const partial = `${target}.restore-${process.pid}`;
  rmSync(partial, { force: true });
  let live: Database.Database | undefined;
  try {
    copyFileSync(source, partial);
    const copy = new Database(partial);
    let lastEventId: number;
    try {
      copy.pragma('journal_mode = DELETE');
      copy.prepare('UPDATE event_seq SET last = MAX(last, ?) WHERE id = 1').run(eventIdFloor(now));
      lastEventId = Number((copy.prepare('SELECT last FROM event_seq WHERE id = 1').get() as { last: number | bigint }).last);
    } finally {
      copy.close();
    }
    fsyncPath(partial);

    let previous: string | null = null;
    if (existsSync(target)) {
      live = new Database(target, { fileMustExist: true, timeout: 0 });
      try {
        live.pragma('journal_mode = DELETE');
        live.exec('BEGIN EXCLUSIVE');
      } catch (error) {
        if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
          throw new Error(`${target} is in use: stop the server (and any running CLI command) first, then restore`);
        }
        throw error;
      }
      previous = `${target}.before-restore-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
      linkSync(target, previous);
    }
    renameSync(partial, target);
    for (const leftover of [`${target}-wal`, `${target}-shm`, `${target}-journal`]) {
      rmSync(leftover, { force: true });
    }
    fsyncPath(dirname(target));
    return { database: target, lastEventId, previous };
  } finally {
    live?.close();
    rmSync(partial, { force: true });
  }
}

/** The first lines of a file (a dump names its tool there). */
function head(path: string, bytes = 512): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The MariaDB/MySQL command line client on PATH, if any. */
function mysqlClient(): string | undefined {
  return ['mariadb', 'mysql'].find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0);
}

/**
 * MySQL/MariaDB: loads a dump made by `mariadb-dump` (the command `backup` prints) into the
 * configured database with the `mariadb` client, then moves the event sequence. Refused while
 * another connection uses the database (a running server), and when the client is missing.
 */
export async function restoreMysql(databaseUrl: string, from: string, now = new Date()): Promise<RestoreResult> {
  const source = resolve(from);
  if (!existsSync(source) || !statSync(source).isFile()) {
    throw new Error(`${source} does not exist`);
  }
  if (!/^-- (MariaDB|MySQL) dump/m.test(head(source))) {
    throw new Error(`${basename(source)} is not a dump made by mariadb-dump (see: npm run cli -- backup --out FILE)`);
  }
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const client = mysqlClient();
  if (!client) {
    throw new Error('restore needs the mariadb command line client: install it (Debian/Ubuntu: apt-get install mariadb-client) and run restore again');
  }
  const connection = await createConnection({ uri: url.toString(), multipleStatements: false });
  try {
    const [others] = await connection.query<Array<{ n: number | string }> & RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()',
      [name],
    );
    const inUse = Number(others[0]?.n ?? 0);
    if (inUse > 0) {
      throw new Error(`the database ${name} is in use (${inUse} other connection${inUse === 1 ? '' : 's'}): stop every server and CLI command using it, then restore`);
    }
    // A restore replaces the database: tables the dump does not have (a newer release's) go too, so
    // that the migrations find exactly the backup's schema.
    const [tables] = await connection.query<Array<{ name: string }> & RowDataPacket[]>(
      "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'",
      [name],
    );
    await connection.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const table of tables) {
      await connection.query(`DROP TABLE \`${table.name.replace(/`/g, '``')}\``);
    }
    await connection.query('SET FOREIGN_KEY_CHECKS = 1');
    await loadDump(client, url, name, source);
    await connection.query('UPDATE event_seq SET last = GREATEST(last, ?) WHERE id = 1', [eventIdFloor(now)]);
    const [rows] = await connection.query<Array<{ last: number | string }> & RowDataPacket[]>('SELECT last FROM event_seq WHERE id = 1');
    return { database: name, lastEventId: Number(rows[0]?.last ?? 0), previous: null };
  } finally {
    await connection.end();
  }
}

/** `mariadb … NAME < FILE`, the password through the environment (never on the command line). */
function loadDump(client: string, url: URL, name: string, file: string): Promise<void> {
  const args = ['-h', url.hostname || '127.0.0.1', '-P', url.port || '3306', '--default-character-set=utf8mb4'];
  if (url.username) {
    args.push('-u', decodeURIComponent(url.username));
  }
  args.push(name);
  const env = { ...process.env, ...(url.password ? { MYSQL_PWD: decodeURIComponent(url.password) } : {}) };
  return new Promise((resolvePromise, reject) => {
    const child = spawn(client, args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise() : reject(new Error(`${client} could not load the dump (exit ${code}): ${errors.trim().slice(0, 500)}`))));
    createReadStream(file).on('error', reject).pipe(child.stdin);
  });
}
