import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { satisfies } from 'semver';
import { asUser, compileServer, ROOT, startServerProcess } from './support/server-process';
import { testDatabaseKind } from './support/test-database';

/**
 * Issue 10, defects 1 and 2, without Docker: the final stage of the Dockerfile is read, exactly
 * what it copies is put into a temporary /app (root-owned, like the image's), and the CLI and the
 * server run there as an unprivileged user on the default SQLite database.
 */
const UNPRIVILEGED = 'community-ct';

interface FinalStage {
  copies: Array<{ from: string; to: string }>;
  runs: string[];
  env: Record<string, string>;
  args: Record<string, string>;
  user?: string;
  cmd: string[];
  volumes: string[];
}

function readFinalStage(): FinalStage {
  const lines = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const start = lines.map((line) => /^FROM\s/i.test(line)).lastIndexOf(true);
  const stage: FinalStage = { copies: [], runs: [], env: {}, args: {}, cmd: [], volumes: [] };
  for (const line of lines.slice(start + 1)) {
    const [instruction = '', ...rest] = line.split(/\s+/);
    const value = rest.join(' ');
    switch (instruction.toUpperCase()) {
      case 'COPY': {
        const match = /^--from=build\s+\/app\/(\S+)\s+\.\/(\S+)$/.exec(value);
        if (!match) {
          throw new Error(`unexpected COPY in the final stage (mirror it in this test): ${line}`);
        }
        stage.copies.push({ from: match[1], to: match[2] });
        break;
      }
      case 'RUN':
        stage.runs.push(value);
        break;
      case 'ENV': {
        const [name, ...parts] = value.split('=');
        stage.env[name] = parts.join('=');
        break;
      }
      case 'ARG': {
        const [name, ...parts] = value.split('=');
        stage.args[name] = parts.join('=');
        break;
      }
      case 'USER':
        stage.user = value;
        break;
      case 'CMD':
        stage.cmd = JSON.parse(value) as string[];
        break;
      case 'VOLUME':
        stage.volumes.push(...(JSON.parse(value) as string[]));
        break;
      case 'WORKDIR':
      case 'EXPOSE':
        break;
      default:
        throw new Error(`unexpected instruction in the final stage (mirror it in this test): ${line}`);
    }
  }
  return stage;
}

function run(user: string | undefined, cwd: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, commandArgs] = asUser(user, process.execPath, args);
  return new Promise((resolve) => {
    execFile(command, commandArgs, { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const describeOnSqlite = testDatabaseKind === 'sqlite' ? describe : describe.skip;

describeOnSqlite('the container image layout, run as a non-root user (e2e)', () => {
  const stage = readFinalStage();
  let app: string;
  let user: string | undefined;
  let uid = 0;
  let gid = 0;
  let env: Record<string, string>;

  /** The image's /app: exactly what the final stage copies, owned by root, readable by all. */
  function layOut(dir: string): void {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    for (const { from, to } of stage.copies) {
      const target = join(dir, to);
      switch (from) {
        case 'dist':
          compileServer(target); // the build stage's `npm run build` (scripts/build-server.js)
          break;
        case 'node_modules':
          // npm prune --omit=dev is not repeated here (it would change the shared install): linked.
          symlinkSync(realpathSync(join(ROOT, 'node_modules')), target);
          break;
        case 'package.json':
        case 'scripts':
          cpSync(join(ROOT, from), target, { recursive: true });
          break;
        case 'console/dist':
          // The console's static files, built by `npm run build` (vite) before the tests run.
          if (!existsSync(join(ROOT, from, 'index.html'))) {
            throw new Error('console/dist is missing: run `npm run build` first');
          }
          cpSync(join(ROOT, from), target, { recursive: true });
          break;
        default:
          throw new Error(`the final stage copies ${from}: mirror it in this test`);
      }
    }
  }

  /** The final stage's RUN steps, mirrored for the unprivileged user (only those this test knows). */
  function applyRuns(dir: string): void {
    for (const step of stage.runs) {
      if (step !== 'mkdir -p /app/data && chown node:node /app/data') {
        throw new Error(`unexpected RUN in the final stage (mirror it in this test): ${step}`);
      }
      mkdirSync(join(dir, 'data'));
      chownSync(join(dir, 'data'), uid, gid);
    }
  }

  beforeAll(() => {
    if (process.getuid?.() === 0) {
      // CI runs as root: the image's `node` user is played by a system user without a home.
      try {
        execFileSync('id', [UNPRIVILEGED], { stdio: 'ignore' });
      } catch {
        execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', UNPRIVILEGED], { stdio: 'ignore' });
      }
      user = UNPRIVILEGED;
      uid = Number(execFileSync('id', ['-u', UNPRIVILEGED]).toString().trim());
      gid = Number(execFileSync('id', ['-g', UNPRIVILEGED]).toString().trim());
    } else {
      uid = process.getuid?.() ?? 0;
      gid = process.getgid?.() ?? 0;
    }
    const root = mkdtempSync(join(tmpdir(), 'community-image-'));
    chmodSync(root, 0o755);
    app = join(root, 'app');
    layOut(app);
    env = { ...stage.env, RECAPTCHA_SECRET: 'layout-test-secret', RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify' };
  });

  afterAll(() => {
    rmSync(join(app, '..'), { recursive: true, force: true });
  });

  it('is what the Dockerfile says: Node 22, no src/, runs as node with a writable data volume', () => {
    const from = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').match(/^FROM\s+(\S+)/gim) ?? [];
    expect(from.every((line) => line.includes('node:22-bookworm-slim'))).toBe(true);
    expect(stage.copies.map((copy) => copy.from).sort()).toEqual(['console/dist', 'dist', 'node_modules', 'package.json', 'scripts']);
    expect(existsSync(join(app, 'src'))).toBe(false);
    expect(stage.user).toBe('node');
    expect(stage.volumes).toEqual(['/app/data']);
    expect(stage.cmd).toEqual(['node', 'dist/main.js']);
    expect(stage.env.APP_VERSION).toBe('${GIT_COMMIT}');
    // Large blocks (argon2's 19 MiB per hash) go back to the system at once: docs/reliability.md, "Lifetime".
    expect(stage.env.MALLOC_MMAP_THRESHOLD_).toBe('131072');
    // A heap limit keeps V8's heap near what is live (the same section).
    expect(stage.env.NODE_OPTIONS).toBe('--max-old-space-size=512');
    // The image's Node and the declared engines agree: the engines are exactly the Node lines with
    // require(esm) (NestJS 12 is ES modules only), and every Node 22 release from 22.12 is in them.
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; engines: { node: string } };
    expect(manifest).toMatchObject({ version: '0.2.0', engines: { node: '^20.19.0 || >=22.12.0' } });
    expect(['20.19.0', '22.12.0', '22.99.0', '24.0.0'].map((version) => satisfies(version, manifest.engines.node))).toEqual([true, true, true, true]);
    expect(['20.18.9', '21.7.0', '22.11.0'].map((version) => satisfies(version, manifest.engines.node))).toEqual([false, false, false]);
  });

  it('without the data directory the start fails as one JSON line naming the error, not coloured text', async () => {
    const bare = join(app, '..', 'bare');
    layOut(bare);
    const server = await startServerProcess({ entry: 'dist/main.js', cwd: bare, env: { ...env, APP_VERSION: '' }, user });
    const code = await Promise.race([server.exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref())]);
    await server.stop();
    const output = server.output.join('');
    expect(code).toBe(1);
    expect(output).not.toContain(String.fromCharCode(27)); // no ANSI colour codes
    const lines = output.split('\n').filter(Boolean);
    expect(lines.every((line) => line.startsWith('{'))).toBe(true);
    const fatal = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).find((line) => line.level === 60);
    expect(fatal?.msg).toMatch(/failed to start: EACCES.*mkdir/);
  });

  it('refuses TRUST_PROXY=yes and a bad BANLIST_SYNC_CRON at start, naming the variable, in JSON', async () => {
    for (const [name, value] of [
      ['TRUST_PROXY', 'yes'],
      ['TRUST_PROXY', 'true'],
      ['BANLIST_SYNC_CRON', '0 0 */6 * * fortnightly'],
    ]) {
      const result = await run(user, app, ['dist/main.js'], { ...env, [name]: value });
      expect(result.code).toBe(1);
      const line = JSON.parse(result.stderr.trim()) as { level: number; msg: string };
      expect(line).toMatchObject({ level: 60, msg: expect.stringContaining(name) });
    }
  });

  it('runs the CLI and the server there on the default SQLite database', async () => {
    applyRuns(app);
    const created = await run(user, app, ['scripts/cli.js', 'apikey:create', '--name', 'ops', '--scope', 'operator', '--json'], env);
    expect(created.stderr).not.toMatch(/ENOENT|scandir/);
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    expect(existsSync(join(app, 'data', 'community.sqlite'))).toBe(true);

    const server = await startServerProcess({ entry: stage.cmd[1], cwd: app, env: { ...env, APP_VERSION: 'abc123def456' }, user });
    try {
      await server.ready();
      const ready = (await (await fetch(`${server.base}/health/ready`)).json()) as { version: string; database: string };
      expect(ready).toMatchObject({ database: 'up', version: 'abc123def456' });
      const listed = await run(user, app, ['scripts/cli.js', 'apikey:list', '--json'], env);
      expect(JSON.parse(listed.stdout)).toMatchObject({ keys: [{ name: 'ops', scopes: ['operator'] }] });
      const sync = await fetch(`${server.base}/users/banlist/sync`, { method: 'POST', headers: { 'x-api-key': key } });
      expect(sync.status).not.toBe(401);
      // The operator console is served from the image's console/dist.
      const console = await fetch(`${server.base}/console`);
      expect(console.status).toBe(200);
      expect(console.headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // No build argument: the package version, not 0.1.0.
    const plain = await startServerProcess({ entry: 'dist/main.js', cwd: app, env: { ...env, APP_VERSION: '' }, user });
    try {
      await plain.ready();
      expect(((await (await fetch(`${plain.base}/health`)).json()) as { version: string }).version).toBe('0.2.0');
    } finally {
      await plain.stop();
    }
  });
});
