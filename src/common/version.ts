import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function gitCommit(): string | undefined {
  try {
    const out = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: join(__dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    });
    const commit = out.toString().trim();
    return /^[0-9a-f]{7,40}$/.test(commit) ? commit : undefined;
  } catch {
    return undefined;
  }
}

/** This release's version (package.json), as a backup file records it. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** The build id in every response: APP_VERSION, else the git commit, else the package version. */
export function resolveBuildVersion(explicit?: string): string {
  return explicit ?? gitCommit() ?? packageVersion();
}
