import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/run-cli';
import { compileServer, ROOT, startServerProcess } from './support/server-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * `.env` in the working folder configures the server and the CLI (docs/env-file.md): the real
 * environment wins over it, a missing file is no error, and under NODE_ENV=test (every test) it is
 * not read, so a developer's `.env` never changes a test.
 */
jest.setTimeout(180_000);

describe('.env file (e2e)', () => {
  let database: TestDatabase;
  let folder: string;
  let buildDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    folder = mkdtempSync(join(tmpdir(), 'community-dotenv-'));
    buildDir = mkdtempSync(join(tmpdir(), 'community-build-'));
    compileServer(buildDir);
    // Creates the schema once, outside any .env.
    const migrated = await runCli(['migration:run', '--json'], { DATABASE_URL: database.url });
    expect(migrated).toMatchObject({ code: 0 });
  });

  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(buildDir, { recursive: true, force: true });
    await database.drop();
  });

  // As an operator runs it: no NODE_ENV, no DATABASE_URL in the environment.
  const operator = { NODE_ENV: undefined, DATABASE_URL: undefined, ENV_FILE: undefined };

  it('the CLI reads DATABASE_URL and the rest from .env in its working folder; the real environment wins', async () => {
    writeFileSync(join(folder, '.env'), `DATABASE_URL=${database.url}\nCITY_BLOCK_LIMIT=lots   # a bad value, to see that the file is read\n`);
    const bad = await runCli(['apikey:list', '--json'], operator, { cwd: folder });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('CITY_BLOCK_LIMIT');

    const created = await runCli(['apikey:create', '--name', 'from-dotenv', '--scope', 'operator', '--json'], { ...operator, CITY_BLOCK_LIMIT: '1000' }, { cwd: folder });
    expect(created.code).toBe(0);
    const listed = await runCli(['apikey:list', '--json'], { DATABASE_URL: database.url });
    expect((JSON.parse(listed.stdout) as { keys: Array<{ name: string }> }).keys.map((key) => key.name)).toEqual(['from-dotenv']);
  });

  it('no .env is no error; under NODE_ENV=test, or with ENV_FILE empty, the file is not read', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'community-nodotenv-'));
    try {
      expect((await runCli(['apikey:list', '--json'], { ...operator, DATABASE_URL: database.url }, { cwd: empty })).code).toBe(0);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    writeFileSync(join(folder, '.env'), 'CITY_BLOCK_LIMIT=lots\n');
    expect((await runCli(['apikey:list', '--json'], { ...operator, NODE_ENV: 'test', DATABASE_URL: database.url }, { cwd: folder })).code).toBe(0);
    expect((await runCli(['apikey:list', '--json'], { ...operator, ENV_FILE: '', DATABASE_URL: database.url }, { cwd: folder })).code).toBe(0);
    const named = await runCli(['apikey:list', '--json'], { ...operator, ENV_FILE: 'missing.env', DATABASE_URL: database.url }, { cwd: folder });
    expect(named.code).toBe(2);
    expect(named.stdout).toContain('ENV_FILE');
  });

  it('the server reads .env from its working folder too, under the real environment', async () => {
    writeFileSync(join(folder, '.env'), `DATABASE_URL=${database.url}\nAPP_VERSION=from-dotenv\nRECAPTCHA_SECRET=x\nLOG_LEVEL=warn\nPORT=1\n`);
    // startServerProcess sets PORT and HOST in the real environment (they win over PORT=1) and
    // ENV_FILE empty; without it the server reads the folder's .env as `npm start` would.
    const server = await startServerProcess({ entry: join(buildDir, 'main.js'), cwd: folder, env: { NODE_PATH: join(ROOT, 'node_modules'), ENV_FILE: undefined } });
    try {
      await server.ready(60_000);
      const health = (await (await fetch(`${server.base}/health`)).json()) as { version: string };
      expect(health.version).toBe('from-dotenv');
    } finally {
      await server.stop();
    }
  });
});
