import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, MigrationInterface } from 'typeorm';
import { buildDataSourceOptions } from '../database/data-source-options';
import { runMigrationsLocked } from '../database/migration-runner';
import { Refused } from './refusals';

type MigrationClass = new () => MigrationInterface;

const MIGRATIONS_FOLDER = join(__dirname, '..', 'database', 'migrations');

let loaded: Array<{ name: string; migration: MigrationClass }> | undefined;

/** This version's migrations, oldest first (the same files the server runs). */
export function knownMigrations(): Array<{ name: string; migration: MigrationClass }> {
  if (!loaded) {
    const found: Array<{ name: string; migration: MigrationClass }> = [];
    for (const file of readdirSync(MIGRATIONS_FOLDER).sort()) {
      if (!/\.(js|ts)$/.test(file) || file.endsWith('.d.ts')) {
        continue;
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = require(join(MIGRATIONS_FOLDER, file)) as Record<string, unknown>;
      for (const value of Object.values(exported)) {
        if (typeof value === 'function' && typeof (value.prototype as { up?: unknown }).up === 'function') {
          const migration = value as MigrationClass;
          found.push({ name: String(new migration().name ?? migration.name), migration });
        }
      }
    }
    loaded = found.sort((a, b) => timestampOf(a.name) - timestampOf(b.name));
  }
  return loaded;
}

function timestampOf(name: string): number {
  return Number(/(\d{13})$/.exec(name)?.[1] ?? 0);
}

/**
 * Checks that a backup's migrations are this version's, in order: a file from a newer version
 * (a migration this one does not know) or from something else is refused.
 */
export function checkMigrationLevel(migrations: string[]): void {
  const known = knownMigrations().map((entry) => entry.name);
  migrations.forEach((name, index) => {
    if (!known.includes(name)) {
      throw new Refused(`the backup was made by a newer version or another service: its schema has the migration ${name}, which this version does not know`);
    }
    if (known[index] !== name) {
      throw new Refused(`the backup's migrations are not this version's in order (${name} at position ${index + 1})`);
    }
  });
}

/**
 * Runs this version's migrations on a (scratch) database, up to and including `upTo`, or all of
 * them when `upTo` is undefined. The same runner as the server's start (utf8mb4 on MariaDB).
 */
export async function migrate(databaseUrl: string, upTo?: string | null): Promise<void> {
  const all = knownMigrations();
  const last = upTo === undefined ? all.length : upTo === null ? 0 : all.findIndex((entry) => entry.name === upTo) + 1;
  const dataSource = new DataSource({
    ...buildDataSourceOptions({ DATABASE_URL: databaseUrl, DATABASE_MIGRATIONS_RUN: false }),
    entities: [],
    migrations: all.slice(0, last).map((entry) => entry.migration),
  });
  await dataSource.initialize();
  try {
    await runMigrationsLocked(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
