import { copyFileSync, existsSync, linkSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { eventIdFloor } from '../events/event-ids';
import { fsyncPath, readManifest } from './backup-file';
import { applyCredentialRules, Revocation } from './credentials';
import { backupFileKind } from './file-kinds';
import { checkMigrationLevel, migrate } from './migration-levels';
import { messageOf, Refused } from './refusals';
import { checkFinalSchema, checkSchemaMatches, checkScratchRows, loadRows } from './scratch-load';
import { SqliteReader, sqliteMigrations, SqliteRowWriter, sqliteTables } from './sqlite-access';

/**
 * Restoring into SQLite (docs/backup-and-restore.md). The live file is never written: the backup
 * is loaded into a scratch file beside it, checked, then renamed over it in one step while the
 * live database is held exclusively (refused while anything has it open). The replaced file is
 * kept as `<file>.before-restore-<time>`.
 */
export interface RestoreResult {
  /** The database file, or the MariaDB database name. */
  database: string;
  /** The id the next event will follow. */
  lastEventId: number;
  /** Where the replaced data was kept (a file, or a MariaDB database), null when there was none. */
  previous: string | null;
}

export function timeStamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

function removeSqliteFiles(path: string): void {
  for (const file of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) {
    rmSync(file, { force: true });
  }
}

function inUse(target: string): Refused {
  return new Refused(`${target} is in use: stop the server (and any running CLI command) first, then restore`);
}

/**
 * Refuses early, before any work, while another connection has the live database open: a
 * connection in exclusive locking mode cannot take its lock then. It only reads, so a database
 * closed cleanly keeps its bytes. (The swap checks again, holding the lock.)
 */
function refuseWhileInUse(target: string): void {
  if (!existsSync(target)) {
    return;
  }
  const probe = new Database(target, { fileMustExist: true, timeout: 0 });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw inUse(target);
    }
    throw error;
  } finally {
    probe.close();
  }
}

/** The revocations the live database lists (none when it has no such table, or no file). */
function liveRevocations(target: string): Revocation[] {
  if (!existsSync(target)) {
    return [];
  }
  // Not read-only: a read-only connection cannot open a WAL database no one else has open. It only reads.
  const live = new Database(target, { fileMustExist: true, timeout: 0 });
  try {
    if (!live.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'api_key_revocations'").get()) {
      return [];
    }
    return live.prepare('SELECT key_hash AS keyHash, revoked_at AS revokedAt FROM api_key_revocations').all() as Revocation[];
  } finally {
    live.close();
  }
}

/** The finishing steps on the scratch copy, whatever it was made from. */
async function finishScratch(scratch: string, revocations: Revocation[], now: Date): Promise<number> {
  await migrate(`sqlite:${scratch}`);
  const db = new Database(scratch, { fileMustExist: true });
  try {
    checkFinalSchema(sqliteTables(db));
    const execute = (sql: string, params: unknown[] = []): Promise<unknown> => Promise.resolve(db.prepare(sql).run(...params));
    db.exec('BEGIN');
    await applyCredentialRules(execute, revocations);
    db.prepare('UPDATE event_seq SET last = MAX(last, ?) WHERE id = 1').run(eventIdFloor(now));
    db.exec('COMMIT');
    const lastEventId = Number((db.prepare('SELECT last FROM event_seq WHERE id = 1').get() as { last: number | bigint }).last);
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') {
      throw new Refused(`the restored copy failed its integrity check: ${String(check)}`);
    }
    return lastEventId;
  } finally {
    db.close();
  }
}

/** A portable backup loaded into the scratch file: migrations to the backup's level, rows, checks. */
async function loadPortable(source: string, scratch: string): Promise<void> {
  const manifest = await readManifest(source);
  await migrate(`sqlite:${scratch}`, manifest.lastMigration);
  const db = new Database(scratch, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    const tables = sqliteTables(db);
    checkSchemaMatches(manifest, tables);
    db.exec('BEGIN');
    const loaded = await loadRows(source, tables, new SqliteRowWriter(db), 'sqlite');
    db.exec('COMMIT');
    await checkScratchRows(SqliteReader.over(db), loaded);
  } finally {
    if (db.inTransaction) {
      db.exec('ROLLBACK');
    }
    db.close();
  }
}

/** An old `VACUUM INTO` copy: checked, copied to the scratch file, then migrated like any database. */
function loadSqliteFile(source: string, scratch: string): void {
  let copy: Database.Database;
  try {
    copy = new Database(source, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Refused(`${source} is not a readable SQLite database: ${messageOf(error)}`);
  }
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') {
      throw new Refused(`${source} failed its integrity check: ${String(check)}`);
    }
    const migrations = sqliteMigrations(copy);
    if (migrations.length === 0) {
      throw new Refused(`${source} is not a backup of this service (no migrations)`);
    }
    checkMigrationLevel(migrations);
    const own = new Set(sqliteTables(copy).map((table) => table.name));
    for (const needed of ['event_seq', 'players', 'cities']) {
      if (!own.has(needed)) {
        throw new Refused(`${source} is not a complete backup of this service (no ${needed} table)`);
      }
    }
  } catch (error) {
    throw error instanceof Refused ? error : new Refused(`${source} is not a readable SQLite database: ${messageOf(error)}`);
  } finally {
    copy.close();
  }
  copyFileSync(source, scratch);
}

/**
 * Swaps the scratch file in: the live database held exclusively (refused while in use), kept
 * under a new name by a hard link, then the scratch renamed over it (atomic).
 */
function swapIn(target: string, scratch: string, now: Date): string | null {
  fsyncPath(scratch);
  let live: Database.Database | undefined;
  try {
    let previous: string | null = null;
    if (existsSync(target)) {
      live = new Database(target, { fileMustExist: true, timeout: 0 });
      try {
        // Leaving WAL mode needs every other connection closed: a running server makes it fail.
        live.pragma('journal_mode = DELETE');
        live.exec('BEGIN EXCLUSIVE');
      } catch (error) {
        if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
          throw inUse(target);
        }
        throw error;
      }
      previous = `${target}.before-restore-${timeStamp(now)}`;
      for (let n = 2; existsSync(previous); n += 1) {
        previous = `${target}.before-restore-${timeStamp(now)}-${n}`;
      }
      linkSync(target, previous);
    }
    renameSync(scratch, target);
    for (const leftover of [`${target}-wal`, `${target}-shm`, `${target}-journal`]) {
      rmSync(leftover, { force: true });
    }
    fsyncPath(dirname(target));
    return previous;
  } finally {
    live?.close();
  }
}

export async function restoreIntoSqlite(databaseFile: string, from: string, now = new Date()): Promise<RestoreResult> {
  const target = resolve(databaseFile);
  const source = resolve(from);
  if (!existsSync(source) || !statSync(source).isFile()) {
    throw new Refused(`${source} does not exist`);
  }
  if (source === target) {
    throw new Refused('the backup is the database itself; name a backup file');
  }
  if (!existsSync(dirname(target))) {
    throw new Refused(`the folder ${dirname(target)} does not exist`);
  }
  const kind = backupFileKind(source);
  if (kind === 'mysql-dump') {
    throw new Refused(`${basename(source)} is a mariadb-dump file: it restores only into MariaDB. Take a portable backup with \`backup --out FILE\` on the MariaDB service instead`);
  }
  if (kind === 'unknown') {
    throw new Refused(`${basename(source)} is not a backup of this service (neither a backup file, nor a SQLite database)`);
  }
  // A fixed name: a restore killed part-way leaves it, and the next run clears it first.
  refuseWhileInUse(target);
  const scratch = `${target}.restore-scratch`;
  removeSqliteFiles(scratch);
  try {
    const revocations = liveRevocations(target);
    if (kind === 'portable') {
      await loadPortable(source, scratch);
    } else {
      loadSqliteFile(source, scratch);
    }
    const lastEventId = await finishScratch(scratch, revocations, now);
    const previous = swapIn(target, scratch, now);
    return { database: target, lastEventId, previous };
  } finally {
    removeSqliteFiles(scratch);
  }
}

/** The replaced databases kept beside the file, newest last. */
export function keptSqliteFiles(databaseFile: string): string[] {
  const target = resolve(databaseFile);
  const prefix = `${basename(target)}.before-restore-`;
  return readdirSync(dirname(target))
    .filter((name) => name.startsWith(prefix) && !/-(journal|wal|shm)$/.test(name))
    .sort()
    .map((name) => join(dirname(target), name));
}

/**
 * `restore --undo`: puts the newest kept database back, the same way a restore swaps (event ids
 * moved on, club sessions ended, revocations applied); the database it replaces is kept in turn,
 * so a second undo goes back again.
 */
export async function undoSqliteRestore(databaseFile: string, now = new Date()): Promise<RestoreResult> {
  const target = resolve(databaseFile);
  const kept = keptSqliteFiles(target).at(-1);
  if (!kept) {
    throw new Refused(`there is nothing to undo: no ${basename(target)}.before-restore-* beside the database`);
  }
  refuseWhileInUse(target);
  const scratch = `${target}.restore-scratch`;
  removeSqliteFiles(scratch);
  try {
    const revocations = liveRevocations(target);
    copyFileSync(kept, scratch);
    const lastEventId = await finishScratch(scratch, revocations, now);
    const previous = swapIn(target, scratch, now);
    rmSync(kept, { force: true });
    return { database: target, lastEventId, previous };
  } finally {
    removeSqliteFiles(scratch);
  }
}
