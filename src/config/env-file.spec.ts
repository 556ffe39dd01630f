import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configVariables, loadConfig } from './app-config';
import { envFileToLoad } from './env-file';

const EXAMPLE = join(__dirname, '..', '..', '.env.example');

/** Loads a file with `process.loadEnvFile` in a fresh process (environment: PATH only) and returns what arrived. */
function loadedBy(path: string, env: Record<string, string> = {}): Record<string, string> {
  const script = `const before = new Set(Object.keys(process.env)); process.loadEnvFile(${JSON.stringify(path)});
    process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(process.env).filter(([name]) => !before.has(name) || ${JSON.stringify(Object.keys(env))}.includes(name)))));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8' })) as Record<string, string>;
}

describe(envFileToLoad.name, () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'env-file-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads .env from the working folder when it exists, and nothing (no error) when it does not', () => {
    expect(envFileToLoad({}, dir)).toBeUndefined();
    writeFileSync(join(dir, '.env'), 'PORT=4000\n');
    expect(envFileToLoad({}, dir)).toBe(join(dir, '.env'));
    expect(envFileToLoad({ NODE_ENV: 'production' }, dir)).toBe(join(dir, '.env'));
  });

  it('reads no .env under NODE_ENV=test, so a developer\'s file never reaches a server or CLI a test starts', () => {
    writeFileSync(join(dir, '.env'), 'PORT=4000\n');
    expect(envFileToLoad({ NODE_ENV: 'test' }, dir)).toBeUndefined();
    expect(envFileToLoad({ NODE_ENV: 'test', ENV_FILE: 'other.env' }, dir)).toBe(join(dir, 'other.env'));
  });

  it('follows ENV_FILE: a path relative to the working folder, or empty for none', () => {
    writeFileSync(join(dir, '.env'), 'PORT=4000\n');
    expect(envFileToLoad({ ENV_FILE: '' }, dir)).toBeUndefined();
    expect(envFileToLoad({ ENV_FILE: 'config/prod.env' }, dir)).toBe(join(dir, 'config', 'prod.env'));
    expect(envFileToLoad({ ENV_FILE: '/etc/community.env' }, dir)).toBe('/etc/community.env');
  });

  it('the real environment wins over the file (Node\'s loader)', () => {
    writeFileSync(join(dir, '.env'), 'PORT=4000\nHOST=127.0.0.1\n');
    expect(loadedBy(join(dir, '.env'), { PORT: '5000' })).toEqual({ PORT: '5000', HOST: '127.0.0.1' });
  });
});

describe('.env.example', () => {
  const text = readFileSync(EXAMPLE, 'utf8');
  const assigned = [...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, name, rest]) => [name, rest.replace(/\s+#.*$/, '').trim()] as const);

  it('loads as shipped: every variable it sets arrives with its value, and nothing else does', () => {
    const loaded = loadedBy(EXAMPLE);
    expect(loaded).toEqual(Object.fromEntries(assigned));
    expect(Object.keys(loaded)).toContain('CORS_ORIGINS');
  });

  it('names every variable the configuration reads (set, or commented out as tests-only), and its values start the service', () => {
    const mentioned = new Set([...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)[=:]/gm)].map(([, name]) => name));
    expect([...new Set(configVariables())].filter((name) => !mentioned.has(name))).toEqual([]);
    expect(() => loadConfig(loadedBy(EXAMPLE))).not.toThrow();
  });
});
