import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../scripts/free-port';
import { ROOT } from './support/server-process';

/**
 * `npm start` with a fresh build (docs/deployment.md): the prestart step rebuilds nothing and the
 * server answers within seconds. `npm test` built dist/ and console/dist/ before this file runs.
 * The bound is generous (the machine is shared with the rest of the suite); it measured 3–4 s.
 */
jest.setTimeout(120_000);

describe('npm start with a fresh build (e2e)', () => {
  it('rebuilds neither part and is ready within seconds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-fresh-'));
    const port = await freePort();
    const output: string[] = [];
    const started = Date.now();
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'development', LOG_LEVEL: 'warn', ENV_FILE: '', DATABASE_URL: `sqlite:${join(dir, 'start.sqlite')}` },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let readyAfterMs: number | undefined;
      while (readyAfterMs === undefined && Date.now() - started < 90_000 && child.exitCode === null) {
        if (await fetch(`http://127.0.0.1:${port}/health/ready`).then((response) => response.ok, () => false)) {
          readyAfterMs = Date.now() - started;
        } else {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const text = output.join('');
      expect(text).toContain('the server build is fresh, not rebuilt');
      expect(text).toContain('the console build is fresh, not rebuilt');
      expect(readyAfterMs).toBeDefined();
      expect(readyAfterMs).toBeLessThan(30_000);
    } finally {
      if (child.exitCode === null) {
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
