import type { DataSource } from 'typeorm';

/** Page cache of the importing SQLite connection, in KiB. */
const SQLITE_IMPORT_CACHE_KIB = 256 * 1024;

/**
 * Tunes the connection for a bulk import of login records. Records arrive in time order but the
 * unique index is (player, time): inserts land all over it. SQLite's default 2 MB page cache then
 * rereads and rewrites pages on every batch; a larger cache for this one connection keeps a
 * million-row import linear. MySQL needs nothing.
 */
export async function prepareForBulkImport(dataSource: DataSource, cacheKiB = SQLITE_IMPORT_CACHE_KIB): Promise<void> {
  if (dataSource.options.type === 'better-sqlite3') {
    await dataSource.query(`PRAGMA cache_size = -${cacheKiB}`);
  }
}
