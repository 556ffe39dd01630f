import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { BuiltServer, ROOT, ServerProcess } from './support/server-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * Several instances starting at once on one empty database all come up (before:
 * one crashed with "Table 'app_locks' already exists"), and each migration runs once.
 */
describe('several instances starting at once on an empty database (e2e)', () => {
  let build: BuiltServer;
  let database: TestDatabase;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    build = BuiltServer.build();
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    build.remove();
    await database.drop();
  });

  it('all three become ready and every migration is recorded exactly once', async () => {
    const env = { DATABASE_URL: database.url, RECAPTCHA_SECRET: 'x', APP_VERSION: 'concurrent-start' };
    servers.push(...(await Promise.all([1, 2, 3].map(() => build.start(env)))));
    await Promise.all(servers.map((server) => server.ready(60_000)));

    const migrationFiles = readdirSync(join(ROOT, 'src', 'database', 'migrations')).filter((file) => file.endsWith('.ts'));
    const check = new DataSource(buildDataSourceOptions({ DATABASE_URL: database.url, DATABASE_MIGRATIONS_RUN: false }));
    await check.initialize();
    try {
      const rows = await check.query<Array<{ name: string }>>('SELECT name FROM migrations');
      expect(rows).toHaveLength(migrationFiles.length);
      expect(new Set(rows.map((row) => row.name)).size).toBe(migrationFiles.length);
      expect(await check.showMigrations()).toBe(false);
    } finally {
      await check.destroy();
    }
    for (const server of servers) {
      expect(server.output.join('')).not.toMatch(/"level":(50|60)/);
    }
  });
});
