import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { packageVersion } from '../common/version';
import { writeBackup, WrittenBackup } from './backup-file';
import type { DatabaseReader } from './database-access';
import { MysqlReader } from './mysql-access';
import { Refused } from './refusals';
import { SqliteReader } from './sqlite-access';

/** The configured database, read through one consistent snapshot of its own. */
export async function openSnapshot(databaseUrl: string): Promise<DatabaseReader> {
  if (!databaseUrl.startsWith('sqlite:')) {
    return MysqlReader.open(databaseUrl, { snapshot: true });
  }
  const file = databaseUrl.slice('sqlite:'.length);
  if (file === ':memory:') {
    throw new Refused('backup needs a database file; sqlite::memory: has none');
  }
  if (!existsSync(resolve(file))) {
    throw new Refused(`there is no database at ${resolve(file)}`);
  }
  return SqliteReader.open(resolve(file), { snapshot: true });
}

/**
 * `backup --out FILE`: the configured database, online, into one portable file
 * (docs/backup-and-restore.md). No database client is run.
 */
export async function takeBackup(databaseUrl: string, out: string): Promise<WrittenBackup> {
  if (existsSync(resolve(out))) {
    throw new Refused(`${resolve(out)} exists already; choose a new file name`);
  }
  const source = await openSnapshot(databaseUrl);
  try {
    return await writeBackup(source, out, packageVersion());
  } finally {
    await source.close();
  }
}
