import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './app-config';

/**
 * Which env file the server and the CLI read at start (docs/env-file.md), or undefined for none:
 * - `.env` in the working folder when it exists (a missing file is no error: a container passes
 *   its environment directly);
 * - `ENV_FILE=<path>` names another file (it must exist), `ENV_FILE=` (empty) reads none;
 * - with `NODE_ENV=test` in the real environment no file is read unless `ENV_FILE` names one, so a
 *   developer's `.env` never changes what the servers and CLIs that tests start see.
 */
export function envFileToLoad(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const named = env.ENV_FILE;
  if (named !== undefined) {
    return named === '' ? undefined : resolve(cwd, named);
  }
  if (env.NODE_ENV === 'test') {
    return undefined;
  }
  const path = resolve(cwd, '.env');
  return existsSync(path) ? path : undefined;
}

/**
 * Loads the env file (`envFileToLoad`) into `process.env` with Node's own parser: a variable set
 * in the real environment wins over the file. Returns the file read, if any; a file named by
 * ENV_FILE that cannot be read is a ConfigError.
 */
export function loadEnvFile(): string | undefined {
  const path = envFileToLoad(process.env, process.cwd());
  if (path !== undefined) {
    try {
      process.loadEnvFile(path);
    } catch (error) {
      throw new ConfigError(`Invalid configuration: ENV_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
  }
  return path;
}
