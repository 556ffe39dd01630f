import { runCli } from './support/run-cli';
import { expectError, newPlayer, registerClubUser, TestApp } from './support/test-app';

/** The command line against the same database as a running server. */
describe('command line (e2e)', () => {
  let app: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    app = await TestApp.start();
    env = { DATABASE_URL: app.database.url };
  });

  afterAll(async () => {
    await app.stop();
  });

  function parseOneJson(stdout: string): Record<string, unknown> {
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]) as Record<string, unknown>;
  }

  it('creates, lists and revokes API keys while the server runs', async () => {
    const created = await runCli(['apikey:create', '--name', 'ops-team', '--scope', 'operator', '--scope', 'game-server', '--json'], env);
    expect(created.code).toBe(0);
    const output = parseOneJson(created.stdout);
    expect(output).toEqual({ name: 'ops-team', key: expect.stringMatching(/^csk_[A-Za-z0-9]{40}$/), scopes: ['operator', 'game-server'] });

    const before = parseOneJson((await runCli(['apikey:list', '--json'], env)).stdout);
    expect(before.keys).toEqual([{ name: 'ops-team', scopes: ['operator', 'game-server'], createdAt: expect.any(String), lastUsedAt: null }]);
    expect(JSON.stringify(before)).not.toContain(output.key as string);

    const player = newPlayer();
    const issued = await app.post('/game-server/userkeys', player, { headers: { 'x-api-key': output.key as string } });
    expect(issued.status).toBe(201);
    const after = parseOneJson((await runCli(['apikey:list', '--json'], env)).stdout);
    const [listed] = after.keys as Array<{ lastUsedAt: string | null }>;
    expect(listed?.lastUsedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const revoked = await runCli(['apikey:revoke', '--name', 'ops-team', '--json'], env);
    expect(parseOneJson(revoked.stdout)).toEqual({ name: 'ops-team', revoked: true });
    expectError(await app.post('/game-server/userkeys', player, { headers: { 'x-api-key': output.key as string } }), 401, 'unauthorized');
  });

  it('refreshes lastUsedAt at most once a minute', async () => {
    const key = await app.createApiKey(['game-server'], 'once-a-minute');
    const lastUsed = async (): Promise<string> => {
      const rows = await app.dataSource.query<Array<{ at: unknown }>>('SELECT last_used_at AS at FROM api_keys WHERE name = ?', ['once-a-minute']);
      return String(rows[0]?.at instanceof Date ? rows[0].at.toISOString() : rows[0]?.at);
    };
    const use = async (): Promise<void> => {
      expect((await app.post('/game-server/userkeys', newPlayer(), { headers: { 'x-api-key': key } })).status).toBe(201);
    };
    await use();
    const first = await lastUsed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await use();
    expect(await lastUsed()).toBe(first);
    // A minute later (moved back in the database) the next use records the time again.
    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString().replace('T', ' ').replace('Z', '');
    await app.dataSource.query('UPDATE api_keys SET last_used_at = ? WHERE name = ?', [twoMinutesAgo, 'once-a-minute']);
    await use();
    const refreshed = await lastUsed();
    expect(refreshed).not.toBe(first);
    expect(Date.parse(refreshed.includes('T') ? refreshed : `${refreshed.replace(' ', 'T')}Z`)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a duplicate key name and an unknown scope with exit code 2', async () => {
    expect((await runCli(['apikey:create', '--name', 'dup', '--scope', 'operator', '--json'], env)).code).toBe(0);
    const duplicate = await runCli(['apikey:create', '--name', 'dup', '--scope', 'operator', '--json'], env);
    expect(duplicate.code).toBe(2);
    expect(parseOneJson(duplicate.stdout)).toEqual({ error: expect.stringMatching(/already exists/) });
    const badScope = await runCli(['apikey:create', '--name', 'x', '--scope', 'root'], env);
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toMatch(/root/);
  });

  it('treats key names case-insensitively on every database: create refuses, revoke finds', async () => {
    expect((await runCli(['apikey:create', '--name', 'Ops-Night', '--scope', 'operator', '--json'], env)).code).toBe(0);
    const sameButCase = await runCli(['apikey:create', '--name', 'ops-NIGHT', '--scope', 'game-server', '--json'], env);
    expect(sameButCase.code).toBe(2);
    expect(parseOneJson(sameButCase.stdout)).toEqual({ error: expect.stringMatching(/already exists/) });
    const revoked = await runCli(['apikey:revoke', '--name', 'OPS-night', '--json'], env);
    expect(revoked.code).toBe(0);
    const listed = parseOneJson((await runCli(['apikey:list', '--json'], env)).stdout);
    expect((listed.keys as Array<{ name: string }>).map((key) => key.name)).not.toContain('Ops-Night');
    expect((await runCli(['apikey:create', '--name', 'ops-night', '--scope', 'operator', '--json'], env)).code).toBe(0);
  });

  it('sets the club group of an account', async () => {
    const gameServerKey = await app.createApiKey(['game-server']);
    const user = await registerClubUser(app, gameServerKey);
    const result = await runCli(['club:set-group', '--player', user.mcid, '--group', 'admin', '--json'], env);
    expect(result.code).toBe(0);
    expect(parseOneJson(result.stdout)).toEqual({ player: user.mcid, group: 'admin' });
    const me = await app.get<{ data: { clubgroup: string } }>('/club/@me', { query: { usertoken: user.usertoken } });
    expect(me.body.data.clubgroup).toBe('admin');
    const unknown = await runCli(['club:set-group', '--player', 'nobody_at_all', '--group', 'admin'], env);
    expect(unknown.code).toBe(2);
  });

  it('webhook:add refuses a private target and names WEBHOOK_ALLOW_PRIVATE, as the API does', async () => {
    for (const url of ['http://[::127.0.0.1]/x', 'http://[2002:7f00:1::]/x']) {
      const refused = await runCli(['webhook:add', '--url', url, '--json'], { ...env, WEBHOOK_ALLOW_PRIVATE: 'false' });
      expect({ url, code: refused.code }).toEqual({ url, code: 2 });
      expect(parseOneJson(refused.stdout)).toEqual({ error: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=true') });
    }
    const plain = await runCli(['webhook:add', '--url', 'http://[::ffff:0:127.0.0.1]/x'], { ...env, WEBHOOK_ALLOW_PRIVATE: 'false' });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('WEBHOOK_ALLOW_PRIVATE=true');
  });

  it('exits 2 on a usage error of any command (unknown command, unknown or missing option), with commander\'s message once', async () => {
    for (const args of [['no-such-command'], ['apikey:create', '--scope', 'operator'], ['apikey:list', '--bogus'], ['restore'], ['restore', '--from', 'a', '--undo'], ['backup']]) {
      const result = await runCli(args, env);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr.trim().split('\n').filter((line) => /error/i.test(line)).length).toBeLessThanOrEqual(1);
      expect(result.stderr).toMatch(/error|needs exactly one/i);
    }
    const json = await runCli(['apikey:list', '--bogus', '--json'], env);
    expect(json.code).toBe(2);
    expect(parseOneJson(json.stdout)).toEqual({ error: expect.stringContaining('--bogus') });
  });

  it('names the bad variable when the configuration is invalid', async () => {
    const result = await runCli(['apikey:list'], { ...env, CITY_BLOCK_LIMIT: 'lots' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/CITY_BLOCK_LIMIT/);
  });
});
