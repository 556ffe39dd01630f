import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { verifyBackupFile } from './backup-file';
import type { BackupManifest } from './backup-format';
import { backupFileKind } from './file-kinds';
import { mysqlDatabaseName, mysqlTables, openMysql } from './mysql-access';
import { FailedPartWay, messageOf, Refused } from './refusals';
import { restoreIntoMysql, undoMysqlRestore } from './restore-mysql';
import { restoreIntoSqlite, RestoreResult, undoSqliteRestore } from './restore-sqlite';
import { RowProblem, rowsTheTargetCannotHold } from './scratch-load';

function sqliteFile(databaseUrl: string): string {
  const file = databaseUrl.slice('sqlite:'.length);
  if (file === ':memory:') {
    throw new Refused('restore needs a database file; sqlite::memory: has none');
  }
  return file;
}

/**
 * Anything but a refusal, thrown before the swap, left the live data as it was: said so, with
 * exit 1 (failed part-way) rather than 2 (the input was refused).
 */
async function failingSafely<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refused || error instanceof FailedPartWay) {
      throw error;
    }
    throw new FailedPartWay(`${messageOf(error)}. The live data is as it was; a scratch copy left behind is cleared by the next restore`, { cause: error });
  }
}

/** `restore --from FILE` into the configured database, whichever database made the file. */
export function restore(databaseUrl: string, from: string): Promise<RestoreResult> {
  return failingSafely(() => (databaseUrl.startsWith('sqlite:') ? restoreIntoSqlite(sqliteFile(databaseUrl), from) : restoreIntoMysql(databaseUrl, from)));
}

/** `restore --undo`: the data the last restore replaced, put back. */
export function undoRestore(databaseUrl: string): Promise<RestoreResult> {
  return failingSafely(() => (databaseUrl.startsWith('sqlite:') ? undoSqliteRestore(sqliteFile(databaseUrl)) : undoMysqlRestore(databaseUrl)));
}

export interface CheckResult {
  manifest: BackupManifest;
  /** Rows the configured target cannot hold (checked only when the target's schema exists). */
  problems: RowProblem[];
  /** Why the target was not checked, if it was not. */
  targetNote: string | null;
}

/**
 * `restore --check FILE`: the file verified in full (manifest, every row counted and
 * checksummed) without writing anything; then, when the configured target is MariaDB and has its
 * schema, every row its columns could not hold, listed (reading its schema only).
 */
export async function checkBackup(databaseUrl: string | undefined, file: string): Promise<CheckResult> {
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new Refused(`${path} does not exist`);
  }
  if (backupFileKind(path) !== 'portable') {
    throw new Refused(`${path} is not a portable backup of this service (--check reads files made by \`backup\`)`);
  }
  const manifest = await verifyBackupFile(path);
  if (!databaseUrl || databaseUrl.startsWith('sqlite:')) {
    return { manifest, problems: [], targetNote: null };
  }
  const database = mysqlDatabaseName(databaseUrl);
  let tables;
  try {
    const connection = (await openMysql(databaseUrl)).promise();
    try {
      tables = await mysqlTables(connection, database);
    } finally {
      await connection.end();
    }
  } catch (error) {
    return { manifest, problems: [], targetNote: `the target database could not be read (${messageOf(error)}); the restore checks every row itself` };
  }
  if (tables.length === 0) {
    return { manifest, problems: [], targetNote: `the target database ${database} has no tables yet; the restore checks every row itself` };
  }
  return { manifest, problems: await rowsTheTargetCannotHold(path, tables, 'mysql'), targetNote: null };
}
