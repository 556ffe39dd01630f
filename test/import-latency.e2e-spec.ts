import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/run-cli';
import { TestApp } from './support/test-app';
import { testDatabaseKind } from './support/test-database';

const ROWS = 60_000;
const PLAYERS = 6_000;

const describeOnSqlite = testDatabaseKind === 'sqlite' ? describe : describe.skip;

/**
 * Issue 10, defect 9: `import:logins` writing to the SQLite database of a running server keeps
 * its transactions short, so the server is never kept waiting long. The bound is generous (see
 * below); bench/import-latency.js measures the real figures.
 */
describeOnSqlite('server latency during a SQLite import (e2e)', () => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    app = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'import-latency-'));
  });

  afterAll(async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps p99 of reads and writes low while the CLI imports', async () => {
    const file = join(dir, 'logins.csv');
    execFileSync(process.execPath, [join(__dirname, '..', 'scripts', 'generate-logins.js'), '--rows', String(ROWS), '--players', String(PLAYERS), '--out', file], { stdio: 'ignore' });
    const key = await app.createApiKey(['game-server']);
    let importing = true;
    const importRun = runCli(['import:logins', '--file', file, '--json'], { DATABASE_URL: app.database.url }).finally(() => (importing = false));
    const samples: number[] = [];
    let n = 0;
    const client = async (): Promise<void> => {
      while (importing) {
        n += 1;
        const started = performance.now();
        const result =
          n % 4 === 0
            ? await app.post('/game-server/userkeys', { uuid: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`, mcid: `lat_${n}` }, { headers: { 'x-api-key': key } })
            : await app.get('/users', { query: { mcid: `player_${n % PLAYERS}` } });
        expect([200, 201, 404]).toContain(result.status);
        samples.push(performance.now() - started);
      }
    };
    await Promise.all([client(), client(), client()]);
    const imported = await importRun;
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ rows: ROWS, accepted: ROWS });
    samples.sort((a, b) => a - b);
    const p99 = samples[Math.floor(samples.length * 0.99)] ?? 0;
    process.stderr.write(`import-latency p99 ${p99.toFixed(1)} ms, max ${samples.at(-1)?.toFixed(1)} ms, ${samples.length} samples\n`);
    expect(samples.length).toBeGreaterThan(100);
    // Generous: in a whole `npm test` run this file shares Jest's one process (its heap grown by
    // the files before it) with the server and the clients, and a pause of that process (GC, most
    // likely) has shown as a p99 of 0.95 s over 300 samples in CI, while the file alone measures
    // about 60 ms. A transaction as long as the import, or a write refused with SQLITE_BUSY (the 503s
    // this guards against), still fails it; bench/import-latency.js measures the server in a
    // process of its own (p99 36 ms over 1,000,000 rows, docs/game-server.md).
    expect(p99).toBeLessThan(2_000);
  });
});
