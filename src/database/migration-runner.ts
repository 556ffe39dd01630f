import type { Database } from 'better-sqlite3';
import { DataSource, type Migration } from 'typeorm';
import { withoutStatementDeadline } from './mysql-deadlines';
import { convertTablesToUtf8mb4, setDatabaseDefaultToUtf8mb4 } from './utf8mb4';

/** How long an instance waits for another one's migrations before giving up. */
const LOCK_WAIT_SECONDS = 120;
/** The server's busy wait for SQLite locks outside migrations (data-source-options.ts). */
export const SQLITE_BUSY_TIMEOUT_MS = 2000;

/**
 * Migrations (docs/deployment.md, MySQL / MariaDB): run under a database-wide lock, so several instances starting at
 * once on one (empty) database all come up and each migration runs once.
 * - MySQL/MariaDB: a named lock (GET_LOCK) per database, held on one connection while the
 *   migrations run on others; afterwards every text column is made utf8mb4 (tables created by
 *   any migration included), still under the lock.
 * - SQLite: one IMMEDIATE transaction (the database's own write lock) around all pending
 *   migrations; another process waits for it, then finds nothing pending.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<Migration[]> {
  if (dataSource.options.type !== 'mysql') {
    return runOnSqlite(dataSource);
  }
  // A migration may rewrite a whole table, and the lock wait is minutes: no per-statement
  // deadline, so they run on a data source (and pool) of their own without it.
  const migrator = await new DataSource({ ...withoutStatementDeadline(dataSource.options), migrationsRun: false }).initialize();
  try {
    return await runOnMysql(migrator);
  } finally {
    await migrator.destroy();
  }
}

async function runOnMysql(dataSource: DataSource): Promise<Migration[]> {
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    const [row] = (await lockHolder.query(`SELECT GET_LOCK(CONCAT('migrations-', SHA1(DATABASE())), ?) AS got`, [LOCK_WAIT_SECONDS])) as Array<{ got: unknown }>;
    if (Number(row?.got) !== 1) {
      throw new Error(`Another instance held the migration lock for over ${LOCK_WAIT_SECONDS} s`);
    }
    try {
      await setDatabaseDefaultToUtf8mb4(lockHolder);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      await convertTablesToUtf8mb4(lockHolder);
      return applied;
    } finally {
      await lockHolder.query(`SELECT RELEASE_LOCK(CONCAT('migrations-', SHA1(DATABASE())))`);
    }
  } finally {
    await lockHolder.release();
  }
}

async function runOnSqlite(dataSource: DataSource): Promise<Migration[]> {
  // TypeORM's one better-sqlite3 connection, through its public QueryRunner.connect(): the
  // migrations run on it, so the transaction and pragmas below must be set on it too.
  const runner = dataSource.createQueryRunner();
  try {
    return await migrateInOneTransaction(dataSource, (await runner.connect()) as Database);
  } finally {
    await runner.release();
  }
}

async function migrateInOneTransaction(dataSource: DataSource, db: Database): Promise<Migration[]> {
  // Waiting for another process's migrations blocks this one's event loop; at start, before
  // listening, that is what we want.
  db.pragma(`busy_timeout = ${LOCK_WAIT_SECONDS * 1000}`);
  // SQLite's procedure for schema changes: foreign keys off *before* the transaction (the pragma
  // is a no-op inside one, and TypeORM's table rebuilds for ALTER drop the old table, which the
  // rows referencing it would refuse), a foreign_key_check before COMMIT, then back on.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      const applied = await dataSource.runMigrations({ transaction: 'none' });
      const violations = db.pragma('foreign_key_check') as unknown[];
      if (violations.length > 0) {
        throw new Error(`Migrations left ${violations.length} rows violating foreign keys: ${JSON.stringify(violations.slice(0, 5))}`);
      }
      db.exec('COMMIT');
      return applied;
    } catch (error) {
      if (db.inTransaction) {
        db.exec('ROLLBACK');
      }
      throw error;
    }
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}
