import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run --silent cli -- …` the way an operator would (through scripts/cli.js). The
 * environment is this process's (NODE_ENV=test: no .env is read) with `env` over it; a variable
 * given as undefined is left out.
 */
export function runCli(args: string[], env: Record<string, string | undefined>, options: { cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(__dirname, '..', '..', 'scripts', 'cli.js'), ...args],
      { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, cwd: options.cwd, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
