import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

// npm's own range logic. Installed through npm's and many packages' dependencies but not declared
// (no @types either): typed here for the two calls used.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as { satisfies(version: string, range: string): boolean; minVersion(range: string): { version: string } | null };

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  os?: string[];
  cpu?: string[];
}

/** npm skips an optional package built for another system (sharp's prebuilt binaries): its engines never apply here. */
function installsHere(entry: LockEntry): boolean {
  return (entry.os === undefined || entry.os.includes(process.platform)) && (entry.cpu === undefined || entry.cpu.includes(process.arch));
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; overrides?: Record<string, string>; scarfSettings?: { enabled?: boolean } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/** A clean `npm ci`: no engine warning, nothing reported home, and what the override replaced still works. */
describe('clean install (e2e)', () => {
  it.each([
    ['the oldest Node version package.json allows', semver.minVersion(manifest.engines.node)?.version ?? 'none'],
    ['the Node version running the tests', process.version],
  ])('every package in the lock file supports %s (%s): npm ci prints no EBADENGINE', (_label, version) => {
    const unsupported = Object.entries(lock.packages)
      .filter(([, entry]) => installsHere(entry))
      .map(([path, entry]) => [path, Array.isArray(entry.engines) ? undefined : entry.engines?.node] as const)
      .filter((pair): pair is readonly [string, string] => pair[0] !== '' && pair[1] !== undefined)
      .filter(([, range]) => !semver.satisfies(version, range))
      .map(([path, range]) => `${path.replace(/^.*node_modules\//, '')} needs node ${range}`);
    expect(semver.satisfies(version, manifest.engines.node)).toBe(true);
    expect(unsupported).toEqual([]);
  });

  it('turns off the install-time reporting of @scarf/scarf (through swagger-ui-dist), the way its postinstall reads it', () => {
    expect(manifest.scarfSettings).toEqual({ enabled: false });
    // The postinstall opts out on exactly this setting of the root package.json: if a new version
    // reads something else, this fails and the setting is to be renewed.
    const report = readFileSync(require.resolve('@scarf/scarf/report.js'), 'utf8');
    expect(report).toContain('rootPackage.scarfSettings.enabled === false');
  });

  it("@fastify/static still sends files and downloads with the overridden content-disposition", async () => {
    expect(lock.packages['node_modules/content-disposition']?.version).toBe(manifest.overrides?.['content-disposition']);
    const folder = mkdtempSync(join(tmpdir(), 'static-check-'));
    const app = Fastify();
    try {
      writeFileSync(join(folder, 'report 2026.txt'), 'hello');
      await app.register(fastifyStatic, { root: folder, serve: true });
      app.get('/download', (_request, reply) => reply.download('report 2026.txt', '報告 2026.txt'));
      const file = await app.inject({ method: 'GET', url: '/report%202026.txt' });
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe('hello');
      const download = await app.inject({ method: 'GET', url: '/download' });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('hello');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="?? 2026.txt"; filename*=UTF-8''%E5%A0%B1%E5%91%8A%202026.txt`);
    } finally {
      await app.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
