import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/free-port';

export const ROOT = join(__dirname, '..', '..');

/** The sources compiled by swc into `outDir` (what `npm run build` does for the server), for running with plain node. */
export function compileServer(outDir: string): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-server.js'), outDir], {
    cwd: ROOT,
    stdio: 'ignore',
  });
}

/**
 * Runs a command as `user` when given (setpriv execs the command in place, so signals reach it
 * directly), else as this process's user.
 */
export function asUser(user: string | undefined, command: string, args: string[]): [string, string[]] {
  return user ? ['setpriv', [`--reuid=${user}`, `--regid=${user}`, '--clear-groups', '--', command, ...args]] : [command, args];
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output: string[];
  exited: Promise<number | null>;
  /** Resolves when /health/ready answers 200; rejects (with the output) when the process ends first or the deadline passes. */
  ready(timeoutMs?: number): Promise<void>;
  stop(): Promise<number | null>;
}

/** A server process (`node <entry>`) on a free loopback port. */
export async function startServerProcess(options: { entry: string; cwd: string; env: Record<string, string | undefined>; user?: string }): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const [command, args] = asUser(options.user, process.execPath, [options.entry]);
  const child = spawn(command, args, {
    cwd: options.cwd,
    // ENV_FILE empty: no .env of the folder it runs in (a developer's) reaches a test's server (docs/env-file.md).
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ENV_FILE: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a signal reaches the server behind runuser too.
    detached: true,
  });
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  return {
    child,
    base,
    output,
    exited,
    async ready(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const ok = await fetch(`${base}/health/ready`).then((response) => response.status === 200, () => false);
        if (ok) {
          return;
        }
        if (ended || Date.now() > deadline) {
          throw new Error(`server ${ended ? 'exited' : 'did not become ready'}: ${output.join('')}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (!ended) {
        process.kill(-child.pid!, 'SIGTERM');
        const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}

/**
 * The server as it ships, built once for a test file: the sources compiled by swc into a temporary
 * folder (`build()`), run with plain node (`start(env)`: NODE_ENV=test, rate limits off, the
 * project's node_modules), and removed at the end (`remove()`).
 */
export class BuiltServer {
  private constructor(readonly dir: string) {}

  static build(): BuiltServer {
    const dir = mkdtempSync(join(tmpdir(), 'community-build-'));
    compileServer(dir);
    return new BuiltServer(dir);
  }

  start(env: Record<string, string | undefined>): Promise<ServerProcess> {
    return startServerProcess({
      entry: join(this.dir, 'main.js'),
      cwd: ROOT,
      env: { NODE_PATH: join(ROOT, 'node_modules'), NODE_ENV: 'test', RATE_LIMIT_ENABLED: 'false', ...env },
    });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
