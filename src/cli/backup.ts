import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';

/**
 * The `mariadb-dump` command that backs up the configured MySQL/MariaDB database consistently
 * (`--single-transaction`: one InnoDB snapshot, no table locks). The password is never printed:
 * `-p` makes the tool ask for it (or set MYSQL_PWD / an option file).
 */
export function mysqlDumpCommand(databaseUrl: string, out: string): string {
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const parts = ['mariadb-dump', '--single-transaction', '--quick', '--routines', '--triggers', '--hex-blob', '--default-character-set=utf8mb4'];
  parts.push('-h', url.hostname || '127.0.0.1', '-P', url.port || '3306');
  if (url.username) {
    parts.push('-u', shellQuote(decodeURIComponent(url.username)));
  }
  if (url.password) {
    parts.push('-p');
  }
  parts.push(shellQuote(database), '>', shellQuote(out));
  return parts.join(' ');
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A consistent online copy of the SQLite database, taken while the server runs and writes.
 *
 * `VACUUM INTO` reads the whole database inside one read transaction: in WAL mode that is a
 * snapshot, writers carry on meanwhile, and the copy is exactly the database at one moment.
 * (better-sqlite3's `backup()` copies a few pages per step and starts over whenever another
 * connection writes between two steps, so under steady writes it may never finish; a file copy
 * can tear between the database and its WAL.) The copy is written beside the target and renamed
 * into place only after an integrity check, so a failed backup never leaves a half file.
 */
export async function backupSqlite(dataSource: DataSource, out: string): Promise<{ path: string; bytes: number }> {
  const target = resolve(out);
  if (existsSync(target)) {
    throw new Error(`${target} exists already; choose a new file name`);
  }
  if (!existsSync(dirname(target))) {
    throw new Error(`the folder ${dirname(target)} does not exist`);
  }
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  try {
    await dataSource.query('VACUUM INTO ?', [partial]);
    const copy = new Database(partial, { readonly: true });
    try {
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') {
        throw new Error(`the copy failed its integrity check: ${String(check)}`);
      }
    } finally {
      copy.close();
    }
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { path: target, bytes: statSync(target).size };
}
