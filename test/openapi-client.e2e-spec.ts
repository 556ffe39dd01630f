import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { square } from './support/cities';
import { newPlayer, registerClubUser, TestApp } from './support/test-app';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..');

/**
 * A client generated from the served document (openapi-typescript types + openapi-fetch), as a
 * club-site or console author would build one. Written at test time; checked with `tsc --noEmit`
 * because the test runner strips types and would not notice a missing path parameter.
 */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './api';

export interface Scenario {
  username: string;
  password: string;
  cityId: number;
  cityName: string;
  corners: Array<{ id: number; x: string; z: string }>;
  count: number;
}

export async function scenario(baseUrl: string, input: Scenario) {
  const client = createClient<paths>({ baseUrl });

  const signIn = await client.POST('/club/token', { body: { username: input.username, password: input.password, recaptcha: 'pass' } });
  if (!signIn.data) {
    throw new Error('sign-in failed: ' + JSON.stringify(signIn.error));
  }
  const usertoken: string = signIn.data.usertoken;

  const me = await client.GET('/club/@me', { headers: { Authorization: 'Bearer ' + usertoken } });
  const myUuid: string | undefined = me.data?.data.uuid;

  const city = await client.GET('/cities/{id}', { params: { path: { id: String(input.cityId) } } });

  const request = await client.POST('/cities/create', {
    body: { usertoken, recaptcha: 'pass', cityName: input.cityName, cityNameKana: 'てすと', corners: input.corners, count: input.count },
  });
  const requestId: number | undefined = request.data?.requestId;

  const missing = await client.GET('/cities/{id}', { params: { path: { id: '987654' } } });
  const missingJa: string | undefined = missing.error?.message_ja;

  return { usertoken, myUuid, city: city.data?.data, requestStatus: request.response.status, requestId, missingStatus: missing.response.status, missingJa };
}
`;

/** A call without its path parameter: must not compile. */
const MISSING_PATH_PARAMETER = `
import createClient from 'openapi-fetch';
import type { paths } from './api';

export async function broken(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  return client.GET('/cities/{id}', {});
}
`;

const TSCONFIG = {
  compilerOptions: { strict: true, noEmit: true, module: 'node16', moduleResolution: 'node16', target: 'ES2022', lib: ['ES2023', 'DOM'], skipLibCheck: true, types: [] },
};

describe('a client generated from /docs/openapi.json (e2e)', () => {
  let app: TestApp;
  let dir: string;

  const tsc = (file: string) =>
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, `tsconfig.${file}.json`)], { cwd: dir }).then(
      () => '',
      (error: Error & { stdout?: string }) => error.stdout ?? error.message,
    );

  beforeAll(async () => {
    app = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    // The generated files resolve openapi-fetch and its types from the project's node_modules.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'commonjs' }));
    writeFileSync(join(dir, 'openapi.json'), (await app.get('/docs/openapi.json')).text);
    await run(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.json', '-o', 'api.d.ts'], { cwd: dir });
    writeFileSync(join(dir, 'client.ts'), CLIENT);
    writeFileSync(join(dir, 'broken.ts'), MISSING_PATH_PARAMETER);
    for (const file of ['client', 'broken']) {
      writeFileSync(join(dir, `tsconfig.${file}.json`), JSON.stringify({ ...TSCONFIG, files: [`${file}.ts`] }));
    }
  }, 120_000);

  afterAll(async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks a client that signs in, reads @me, reads a city and files a city request', async () => {
    expect(await tsc('client')).toBe('');
  }, 120_000);

  it('refuses, at type-check time, a call that leaves out a path parameter', async () => {
    const output = await tsc('broken');
    expect(output).toMatch(/broken\.ts\(7,\d+\): error TS\d+/);
    expect(output).toMatch(/Property 'params' is missing|'path' is missing|params/);
  }, 120_000);

  it('talks to the service through that client', async () => {
    const gameServerKey = await app.createApiKey(['game-server']);
    const operatorKey = await app.createApiKey(['operator']);
    const user = await registerClubUser(app, gameServerKey, { password: 'client-password-1' });
    const owner = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, owner.uuid, owner.mcid);
    const existing = await app.post<{ cityId: number }>(
      '/cities/create',
      { usertoken: userkey, cityName: 'Existing Town', cityNameKana: 'きそん', corners: square(5000, 5000), count: 100, recaptcha: 'pass', force: true },
      { headers: { 'x-api-key': operatorKey } },
    );
    expect(existing.status).toBe(201);

    const { scenario } = (await import(join(dir, 'client.ts'))) as {
      scenario: (baseUrl: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>;
    };
    const corners = square(9000, 9000).map(({ id, x, z }) => ({ id, x: String(x), z: String(z) }));
    const result = await scenario(app.baseUrl, {
      username: user.mcid,
      password: 'client-password-1',
      cityId: existing.body.cityId,
      cityName: 'Client Town',
      corners,
      count: 100,
    });
    expect(result).toMatchObject({
      usertoken: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      myUuid: user.uuid,
      city: expect.objectContaining({ id: existing.body.cityId }),
      requestStatus: 201,
      requestId: expect.any(Number),
      missingStatus: 404,
      missingJa: expect.stringMatching(/[\u3040-\u30ff\u4e00-\u9fff]/),
    });
  });
});
