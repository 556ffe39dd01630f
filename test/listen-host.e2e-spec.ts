import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileServer, ROOT, startServerProcess } from './support/server-process';
import { createTestDatabase, TestDatabase, testDatabaseKind } from './support/test-database';

/**
 * Where a server started without HOST listens (docs/operations.md, Configuration): loopback for a
 * start without CAPTCHA outside production, with a warning that says how to open it; every
 * interface with CAPTCHA on. And a MariaDB database that does not exist is named at the start.
 */
jest.setTimeout(180_000);

/** An address of this machine other than loopback, if it has one. */
function otherAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
}

async function reachable(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(3000) }).then(
    () => true,
    () => false,
  );
}

describe('the listening address and the start messages (e2e)', () => {
  let buildDir: string;
  let database: TestDatabase;

  beforeAll(async () => {
    buildDir = mkdtempSync(join(tmpdir(), 'community-build-'));
    compileServer(buildDir);
    database = await createTestDatabase();
  });

  afterAll(async () => {
    rmSync(buildDir, { recursive: true, force: true });
    await database.drop();
  });

  const start = (env: Record<string, string | undefined>) =>
    startServerProcess({ entry: join(buildDir, 'main.js'), cwd: ROOT, env: { NODE_PATH: join(ROOT, 'node_modules'), APP_VERSION: 'listen-host-test', DATABASE_URL: database.url, NODE_ENV: 'development', HOST: undefined, ...env } });

  it('without HOST and without CAPTCHA outside production: 127.0.0.1 only, and the warning says HOST=0.0.0.0 opens it', async () => {
    const server = await start({});
    try {
      await server.ready(60_000);
      expect(server.output.join('')).toContain('listens on 127.0.0.1 only');
      expect(server.output.join('')).toContain('HOST=0.0.0.0');
      const other = otherAddress();
      if (other !== undefined) {
        expect(await reachable(`http://${other}:${new URL(server.base).port}/health`)).toBe(false);
      }
    } finally {
      await server.stop();
    }
  });

  it('with CAPTCHA on, or HOST=0.0.0.0: every interface', async () => {
    for (const env of [{ RECAPTCHA_SECRET: 'a-secret' }, { HOST: '0.0.0.0' }]) {
      const server = await start(env);
      try {
        await server.ready(60_000);
        const other = otherAddress();
        if (other !== undefined) {
          expect({ env, reachable: await reachable(`http://${other}:${new URL(server.base).port}/health`) }).toEqual({ env, reachable: true });
        }
        expect(server.output.join('')).not.toContain('listens on 127.0.0.1 only');
      } finally {
        await server.stop();
      }
    }
  });

  (testDatabaseKind === 'mysql' ? it : it.skip)('names a MariaDB database that does not exist, never the credentials', async () => {
    const url = new URL(database.url);
    url.pathname = '/community_no_such_database';
    const server = await start({ DATABASE_URL: url.toString(), LOG_LEVEL: 'info' });
    expect(await server.exited).toBe(1);
    // The fatal line's message names it (the driver's error beside it keeps its values masked).
    const fatal = server.output
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((line) => line.level === 60);
    expect(fatal?.msg).toBe(
      `The service failed to start: The database community_no_such_database does not exist on ${url.hostname}:${url.port || '3306'} (DATABASE_URL): create it (CREATE DATABASE \`community_no_such_database\` CHARACTER SET utf8mb4) or correct the name`,
    );
  });
});
