import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { compileServer, ROOT, ServerProcess, startServerProcess } from './support/server-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * Several instances starting at once on one empty database all come up (before:
 * one crashed with "Table 'app_locks' already exists"), and each migration runs once.
 */
describe('several instances starting at once on an empty database (e2e)', () => {
  let buildDir: string;
  let database: TestDatabase;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    buildDir = mkdtempSync(join(tmpdir(), 'community-build-'));
    compileServer(buildDir);
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(buildDir, { recursive: true, force: true });
    await database.drop();
  });

  it('all three become ready and every migration is recorded exactly once', async () => {
    const env = { NODE_ENV: 'test', DATABASE_URL: database.url, RECAPTCHA_SECRET: 'x', RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'warn', APP_VERSION: 'concurrent-start' };
    servers.push(...(await Promise.all([1, 2, 3].map(() => startServerProcess({ entry: join(buildDir, 'main.js'), cwd: ROOT, env: { ...env, NODE_PATH: join(ROOT, 'node_modules') } })))));
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
