import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { SQLITE_BUSY_TIMEOUT_MS } from './migration-runner';

export type DatabaseKind = 'sqlite' | 'mysql';

export function databaseKind(url: string): DatabaseKind {
  return url.startsWith('sqlite:') ? 'sqlite' : 'mysql';
}

// Globs, not lists: each feature folder owns its entities and migrations without a shared index.
const entities = [join(__dirname, '..', '**', '*.entity.{ts,js}')];
const migrations = [join(__dirname, 'migrations', '*.{ts,js}')];

/**
 * The one place that turns DATABASE_URL into TypeORM options: used by the server, the CLI,
 * the migration command and the tests.
 */
export function buildDataSourceOptions(config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_MIGRATIONS_RUN'>): DataSourceOptions {
  const url = config.DATABASE_URL;
  const common = {
    entities,
    migrations,
    // "Run at start": DatabaseModule does it under the database-wide lock (migration-runner.ts),
    // not TypeORM at initialise.
    migrationsRun: config.DATABASE_MIGRATIONS_RUN,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (databaseKind(url) === 'sqlite') {
    const location = url.slice('sqlite:'.length);
    const inMemory = location === ':memory:';
    const database = inMemory ? ':memory:' : resolve(location);
    if (!inMemory) {
      mkdirSync(dirname(database), { recursive: true });
    }
    return {
      ...common,
      type: 'better-sqlite3',
      database,
      enableWAL: !inMemory,
      prepareDatabase: (db: { pragma: (sql: string) => unknown }) => {
        // Another process (the CLI) may hold the write lock briefly; wait instead of failing. The
        // wait is synchronous (it blocks the event loop), so it stays short: past it, a 503.
        db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
        db.pragma('synchronous = NORMAL');
      },
    };
  }
  return {
    ...common,
    type: 'mysql',
    url: url.replace(/^mariadb:/, 'mysql:'),
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    // Fail fast when the server is gone: a quick 503 beats a hung request.
    connectTimeout: 3000,
    // Numbers where the column is numeric, as better-sqlite3 gives them (docs/design-and-performance.md,
    // "One way to read, one way to write"): BIGINT and COUNT(*) as numbers (every id and count here
    // is far below 2^53; a larger value would still arrive as text rather than lose digits), and
    // DECIMAL results such as SUM() as numbers too.
    supportBigNumbers: true,
    bigNumberStrings: false,
    extra: { connectionLimit: 10, enableKeepAlive: true, maxIdle: 10, idleTimeout: 60000, decimalNumbers: true },
  };
}
