import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/run-cli';
import { expectError, newPlayer, registerClubUser, TestApp } from './support/test-app';
import { createTestDatabase, testDatabaseKind } from './support/test-database';

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

  /** The command names, as the general help lists them. */
  async function commandNames(): Promise<string[]> {
    const help = await runCli(['help'], env);
    const listed = help.stdout.slice(help.stdout.indexOf('Commands:'));
    return [...listed.matchAll(/^ {2}([a-z][a-z:-]*)/gm)].map((match) => match[1]).filter((name) => name !== 'help');
  }

  it('prints the help on stdout and exits 0 for `help`, `--help`, `help COMMAND` and `COMMAND --help` of every command', async () => {
    const names = await commandNames();
    expect(names).toEqual(expect.arrayContaining(['apikey:create', 'backup', 'restore', 'banlist:sync', 'import:original', 'migration:run']));
    const forms = [['help'], ['--help'], ['-h'], ['help', 'help'], ...names.flatMap((name) => [['help', name], [name, '--help']])];
    for (const args of forms) {
      const result = await runCli(args, env);
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
      const name = args.find((arg) => arg !== 'help' && !arg.startsWith('-'));
      expect(result.stdout).toMatch(new RegExp(`^Usage: cli ${name === undefined ? '\\[options\\] \\[command\\]' : name.replace(':', '\\:')}`));
      expect(result.stdout).not.toContain('(outputHelp)');
    }
  }, 300_000);

  it('prints each usage error once: on stderr, or as the one JSON object on stdout with --json (stderr then empty)', async () => {
    for (const args of [['no-such-command'], ['help', 'no-such-command'], ['apikey:create', '--scope', 'operator'], ['apikey:list', '--bogus'], ['restore'], ['backup']]) {
      const plain = await runCli(args, env);
      expect({ args, code: plain.code, stdout: plain.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(plain.stderr.trim().split('\n')).toHaveLength(1);
      const json = await runCli([...args, '--json'], env);
      expect({ args, code: json.code, stderr: json.stderr }).toEqual({ args, code: 2, stderr: '' });
      expect(parseOneJson(json.stdout)).toEqual({ error: plain.stderr.trim() });
    }
    // No command at all: the general help on stderr, a usage error.
    const bare = await runCli([], env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: cli/);
    // With --json alone: the one JSON object on stdout names the usage error; the help stays on stderr.
    const bareJson = await runCli(['--json'], env);
    expect(bareJson.code).toBe(2);
    expect(parseOneJson(bareJson.stdout)).toEqual({ error: expect.stringMatching(/no command given/) });
  }, 180_000);

  it('exits 1 when a command fails (the database cannot be reached), with one line saying so', async () => {
    const unreachable = testDatabaseKind === 'mysql' ? 'mysql://root@127.0.0.1:1/community' : 'sqlite:/dev/null/cannot-be-a-folder/x.sqlite';
    const result = await runCli(['apikey:list'], { DATABASE_URL: unreachable });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('backup and restore read DATABASE_URL from .env in the working folder, as every other command and the server do', async () => {
    const database = await createTestDatabase();
    const folder = mkdtempSync(join(tmpdir(), 'community-cli-dotenv-'));
    // As an operator runs it: no NODE_ENV (so .env is read), DATABASE_URL only in the file.
    const operator = { NODE_ENV: undefined, DATABASE_URL: undefined, ENV_FILE: undefined };
    try {
      expect(await runCli(['migration:run', '--json'], { DATABASE_URL: database.url })).toMatchObject({ code: 0 });
      expect(await runCli(['apikey:create', '--name', 'kept-by-backup', '--scope', 'operator', '--json'], { DATABASE_URL: database.url })).toMatchObject({ code: 0 });
      writeFileSync(join(folder, '.env'), `DATABASE_URL=${database.url}\n`);
      const backupFile = join(folder, 'community.backup');
      const backup = await runCli(['backup', '--out', backupFile, '--json'], operator, { cwd: folder });
      expect(backup.code).toBe(0);
      expect(parseOneJson(backup.stdout)).toMatchObject({ source: testDatabaseKind === 'mysql' ? expect.stringMatching(/mysql|mariadb/) : 'sqlite' });
      // Made after the backup: the restore takes it away (a revocation would be kept on purpose).
      expect(await runCli(['apikey:create', '--name', 'after-backup', '--scope', 'operator', '--json'], { DATABASE_URL: database.url })).toMatchObject({ code: 0 });

      expect(await runCli(['restore', '--check', backupFile, '--json'], operator, { cwd: folder })).toMatchObject({ code: 0 });
      const restored = await runCli(['restore', '--from', backupFile, '--json'], operator, { cwd: folder });
      expect(restored.code).toBe(0);
      // Into the database .env names, not ./data/community.sqlite of the working folder.
      expect(existsSync(join(folder, 'data'))).toBe(false);
      const listed = parseOneJson((await runCli(['apikey:list', '--json'], { DATABASE_URL: database.url })).stdout);
      expect((listed.keys as Array<{ name: string }>).map((key) => key.name)).toEqual(['kept-by-backup']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await database.drop();
    }
  }, 180_000);

  (testDatabaseKind === 'mysql' ? it : it.skip)('names a MariaDB database that does not exist (never the credentials), exit 2, for every kind of command', async () => {
    const url = new URL(app.database.url);
    url.pathname = '/community_no_such_database';
    const missing = url.toString();
    // A sound backup to restore: the refusal must come from the database, not the file.
    const folder = mkdtempSync(join(tmpdir(), 'community-cli-missing-'));
    const backupFile = join(folder, 'sound.backup');
    expect(await runCli(['backup', '--out', backupFile, '--json'], env)).toMatchObject({ code: 0 });
    for (const args of [['apikey:list'], ['backup', '--out', join(folder, 'never-written.backup')], ['restore', '--from', backupFile]]) {
      const result = await runCli(args, { DATABASE_URL: missing });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toContain(`The database community_no_such_database does not exist on ${url.hostname}:${url.port || '3306'} (DATABASE_URL)`);
      expect(result.stderr).not.toMatch(/\?|@/);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const json = await runCli(['apikey:list', '--json'], { DATABASE_URL: missing });
    expect(parseOneJson(json.stdout)).toEqual({ error: expect.stringContaining('community_no_such_database') });
    expect(existsSync(join(folder, 'never-written.backup'))).toBe(false);
    rmSync(folder, { recursive: true, force: true });
  }, 120_000);

  it('banlist:fake-upstream answers as the ban-list service would (Notch banned, anyone else unknown) until stopped, exit 0', async () => {
    const child = spawn(process.execPath, [join(__dirname, '..', 'scripts', 'cli.js'), 'banlist:fake-upstream', '--port', '0', '--json'], { env: { ...process.env, DATABASE_URL: 'sqlite:/dev/null/never-opened' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) {
            resolve(out.trim());
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code} before listening`)));
      });
      const { url, bannedUuid } = JSON.parse(line) as { url: string; bannedUuid: string };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const banned = await fetch(`${url}/player/${bannedUuid}`);
      expect(banned.status).toBe(200);
      expect(await banned.json()).toMatchObject({ name: 'Notch', reputation: 7.5, bans: [{ banId: 90001, type: 'global', reason: 'griefing spawn' }] });
      expect((await fetch(`${url}/player/${newPlayer().uuid}`)).status).toBe(404);

      const busy = await runCli(['banlist:fake-upstream', '--port', new URL(url).port], env);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(/in use/);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 120_000);

  it('names the bad variable when the configuration is invalid', async () => {
    const result = await runCli(['apikey:list'], { ...env, CITY_BLOCK_LIMIT: 'lots' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/CITY_BLOCK_LIMIT/);
    for (const [value, problem] of [['abc', 'is not a number'], ['3000.5', 'is not a whole number'], ['', 'is empty'], ['70000', 'is out of range']]) {
      const port = await runCli(['apikey:list'], { ...env, PORT: value });
      expect({ value, code: port.code }).toEqual({ value, code: 2 });
      expect(port.stderr.trim()).toBe(`Invalid configuration: PORT${value === '' ? '' : `=${value}`} ${problem}${problem === 'is empty' ? ': give a whole number from 1 to 65535, or leave it out for the default' : ': give a whole number from 1 to 65535'}`);
    }
  });
});
