import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { eventIdFloor } from '../events/event-ids';
import { readManifest } from './backup-file';
import { applyCredentialRules, Revocation } from './credentials';
import { quoteMysql } from './database-access';
import { backupFileKind } from './file-kinds';
import { migrate } from './migration-levels';
import { loadMysqlDump } from './mysql-dump-load';
import { MysqlReader, MysqlRowWriter, mysqlDatabaseName, mysqlTables, mysqlUrlFor, openMysql } from './mysql-access';
import { messageOf, Refused } from './refusals';
import type { RestoreResult } from './restore-sqlite';
import { timeStamp } from './restore-sqlite';
import { checkFinalSchema, checkSchemaMatches, checkScratchRows, loadRows } from './scratch-load';

/**
 * Restoring into MariaDB (docs/backup-and-restore.md). The live database is never written: the
 * backup is loaded into the scratch database `<name>_restore` on the same server, checked, then
 * swapped in by one `RENAME TABLE` statement covering every table (atomic: a reader, or a crash,
 * sees all the old tables or all the new ones). The replaced tables move to `<name>_before_<time>`.
 */

/** The longest suffix added to the live name: `_before_YYYYMMDDHHMMSS-NN`. */
const LONGEST_SUFFIX = 26;

/** The live name, shortened with a hash when MariaDB's 64 characters would not hold it with a suffix. */
function baseName(name: string): string {
  if (name.length + LONGEST_SUFFIX <= 64) {
    return name;
  }
  return `${name.slice(0, 64 - LONGEST_SUFFIX - 9)}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

export function scratchDatabaseName(name: string): string {
  return `${baseName(name)}_restore`;
}

function keptPrefix(name: string): string {
  return `${baseName(name)}_before_`;
}

function keptDatabaseName(name: string, now: Date): string {
  return `${keptPrefix(name)}${timeStamp(now).replace(/[TZ]/g, '')}`;
}

async function otherConnections(connection: Connection, database: string): Promise<number> {
  const [rows] = await connection.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()', [database]);
  return Number(rows[0]?.n ?? 0);
}

async function refuseWhileInUse(connection: Connection, database: string): Promise<void> {
  const inUse = await otherConnections(connection, database);
  if (inUse > 0) {
    throw new Refused(`the database ${database} is in use (${inUse} other connection${inUse === 1 ? '' : 's'}): stop every server and CLI command using it, then restore`);
  }
}

async function baseTables(connection: Connection, database: string): Promise<string[]> {
  const [rows] = await connection.query<RowDataPacket[]>("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME", [database]);
  return rows.map((row) => String(row.name));
}

async function liveRevocations(connection: Connection, database: string): Promise<Revocation[]> {
  if (!(await baseTables(connection, database)).includes('api_key_revocations')) {
    return [];
  }
  const [rows] = await connection.query<RowDataPacket[]>(`SELECT key_hash AS keyHash, revoked_at AS revokedAt FROM ${quoteMysql(database)}.api_key_revocations`);
  return rows.map((row) => ({ keyHash: String(row.keyHash), revokedAt: String(row.revokedAt) }));
}

async function createScratch(admin: Connection, scratch: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${quoteMysql(scratch)}`);
  try {
    await admin.query(`CREATE DATABASE ${quoteMysql(scratch)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } catch (error) {
    throw new Refused(`restore needs to create the scratch database ${scratch} on the same server (grant CREATE and DROP on it): ${messageOf(error)}`);
  }
}

/** Migrations, credentials and event ids on the scratch database, after its rows are in. */
async function finishScratch(databaseUrl: string, scratch: string, revocations: Revocation[], now: Date): Promise<number> {
  await migrate(mysqlUrlFor(databaseUrl, scratch));
  const connection = (await openMysql(databaseUrl, scratch)).promise();
  try {
    checkFinalSchema(await mysqlTables(connection, scratch));
    await connection.beginTransaction();
    await applyCredentialRules((sql, params) => connection.query(sql, params), revocations);
    await connection.query('UPDATE event_seq SET last = GREATEST(last, ?) WHERE id = 1', [eventIdFloor(now)]);
    await connection.commit();
    const [rows] = await connection.query<RowDataPacket[]>('SELECT last FROM event_seq WHERE id = 1');
    return Number(rows[0]?.last ?? 0);
  } finally {
    await connection.end();
  }
}

async function loadPortable(databaseUrl: string, source: string, scratch: string): Promise<void> {
  const manifest = await readManifest(source);
  await migrate(mysqlUrlFor(databaseUrl, scratch), manifest.lastMigration);
  const raw = await openMysql(databaseUrl, scratch);
  const connection = raw.promise();
  try {
    const tables = await mysqlTables(connection, scratch);
    checkSchemaMatches(manifest, tables);
    const writer = new MysqlRowWriter(connection);
    await writer.prepare();
    const loaded = await loadRows(source, tables, writer, 'mysql');
    const reader = await MysqlReader.open(databaseUrl, { snapshot: false, database: scratch });
    try {
      await checkScratchRows(reader, loaded);
    } finally {
      await reader.close();
    }
  } finally {
    await connection.end();
  }
}

/**
 * The swap: one RENAME TABLE moving every live table to the kept database and every scratch
 * table into the live one. MariaDB runs it as one atomic step.
 */
async function swapIn(admin: Connection, live: string, scratch: string, now: Date): Promise<string | null> {
  await refuseWhileInUse(admin, live);
  const liveTables = await baseTables(admin, live);
  const scratchTables = await baseTables(admin, scratch);
  let kept: string | null = null;
  const moves: string[] = [];
  if (liveTables.length > 0) {
    kept = keptDatabaseName(live, now);
    for (let n = 2; (await admin.query<RowDataPacket[]>('SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [kept]))[0].length > 0; n += 1) {
      kept = `${keptDatabaseName(live, now)}-${n}`;
    }
    await admin.query(`CREATE DATABASE ${quoteMysql(kept)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    moves.push(...liveTables.map((table) => `${quoteMysql(live)}.${quoteMysql(table)} TO ${quoteMysql(kept!)}.${quoteMysql(table)}`));
  }
  moves.push(...scratchTables.map((table) => `${quoteMysql(scratch)}.${quoteMysql(table)} TO ${quoteMysql(live)}.${quoteMysql(table)}`));
  await admin.query(`RENAME TABLE ${moves.join(', ')}`);
  await admin.query(`DROP DATABASE IF EXISTS ${quoteMysql(scratch)}`);
  return kept;
}

function checkSource(from: string): { source: string; kind: ReturnType<typeof backupFileKind> } {
  const source = resolve(from);
  if (!existsSync(source) || !statSync(source).isFile()) {
    throw new Refused(`${source} does not exist`);
  }
  const kind = backupFileKind(source);
  if (kind === 'sqlite') {
    throw new Refused(`${basename(source)} is a SQLite database file: it restores only into SQLite. Take a portable backup with \`backup --out FILE\` on the SQLite service, then restore that`);
  }
  if (kind === 'unknown') {
    throw new Refused(`${basename(source)} is not a backup of this service (neither a backup file, nor a mariadb-dump file)`);
  }
  return { source, kind };
}

export async function restoreIntoMysql(databaseUrl: string, from: string, now = new Date()): Promise<RestoreResult> {
  const { source, kind } = checkSource(from);
  const live = mysqlDatabaseName(databaseUrl);
  const scratch = scratchDatabaseName(live);
  const admin = (await openMysql(databaseUrl)).promise();
  try {
    await refuseWhileInUse(admin, live);
    if (kind === 'portable') {
      // Refuse a foreign or newer file before creating anything.
      await readManifest(source);
    }
    const revocations = await liveRevocations(admin, live);
    // Leftovers of a killed run: the scratch database (dropped by createScratch) and an empty kept one.
    await keptMysqlDatabases(admin, live);
    await createScratch(admin, scratch);
    try {
      if (kind === 'portable') {
        await loadPortable(databaseUrl, source, scratch);
      } else {
        await loadMysqlDump(databaseUrl, source, scratch);
      }
      const lastEventId = await finishScratch(databaseUrl, scratch, revocations, now);
      const previous = await swapIn(admin, live, scratch, now);
      return { database: live, lastEventId, previous };
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${quoteMysql(scratch)}`);
    }
  } finally {
    await admin.end();
  }
}

/** The kept databases of earlier restores, oldest first. */
export async function keptMysqlDatabases(admin: Connection, live: string): Promise<string[]> {
  const prefix = keptPrefix(live);
  const [rows] = await admin.query<RowDataPacket[]>('SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [`${prefix.replace(/[\\%_]/g, '\\$&')}%`]);
  const kept: string[] = [];
  for (const name of rows.map((row) => String(row.name)).filter((candidate) => /_before_\d{8}\d{6}(-\d+)?$/.test(candidate))) {
    // A restore killed between creating the kept database and the swap leaves it empty: not kept data.
    if ((await baseTables(admin, name)).length > 0) {
      kept.push(name);
    } else {
      await admin.query(`DROP DATABASE IF EXISTS ${quoteMysql(name)}`);
    }
  }
  return kept.sort();
}

/** `restore --undo` on MariaDB: the newest kept database's tables swapped back in, as a restore does. */
export async function undoMysqlRestore(databaseUrl: string, now = new Date()): Promise<RestoreResult> {
  const live = mysqlDatabaseName(databaseUrl);
  const admin = (await openMysql(databaseUrl)).promise();
  try {
    await refuseWhileInUse(admin, live);
    const kept = (await keptMysqlDatabases(admin, live)).at(-1);
    if (!kept) {
      throw new Refused(`there is nothing to undo: no ${keptPrefix(live)}<time> database on the server`);
    }
    const tables = await baseTables(admin, kept);
    if (!['event_seq', 'players', 'migrations'].every((table) => tables.includes(table))) {
      throw new Refused(`the kept database ${kept} does not hold this version's tables; put it back by hand`);
    }
    const revocations = await liveRevocations(admin, live);
    // The kept database is not live: it is brought up to date in place (a kill here leaves it
    // kept, a little further on), then swapped in exactly as a restore's scratch copy is.
    const lastEventId = await finishScratch(databaseUrl, kept, revocations, now);
    const previous = await swapIn(admin, live, kept, now);
    return { database: live, lastEventId, previous };
  } finally {
    await admin.end();
  }
}
