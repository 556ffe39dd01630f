import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { TestApp } from './support/test-app';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..');

/**
 * The console's API types (console/src/api-types.ts) are generated from the document the service
 * serves; this fails when a change to the API documentation was not followed by
 * `node scripts/console-api-types.js`, so the console cannot drift from the service.
 */
describe('console API types (e2e)', () => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    app = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'console-api-types-'));
  });

  afterAll(async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are what scripts/console-api-types.js generates from /docs/openapi.json', async () => {
    const document = join(dir, 'openapi.json');
    writeFileSync(document, (await app.get('/docs/openapi.json')).text);
    const { stdout } = await run(process.execPath, [join(ROOT, 'scripts/console-api-types.js'), '--from', document, '--stdout'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const committed = readFileSync(join(ROOT, 'console/src/api-types.ts'), 'utf8');
    // A plain message instead of a diff of a 4,000-line file.
    const stale = stdout === committed ? '' : 'console/src/api-types.ts is stale: run `node scripts/console-api-types.js` after `npm run build`';
    expect(stale).toBe('');
    expect(committed).toContain('SyncStatusDoc');
  }, 120_000);
});
