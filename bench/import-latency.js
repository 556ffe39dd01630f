#!/usr/bin/env node
// Server latency while `import:logins` writes to the same SQLite database (issue 10, defect 9).
//   npm run build && node bench/import-latency.js [--rows 200000] [--players 20000] [--batch-size N]
// Starts dist/main.js on a temporary SQLite file, measures reads (GET /users?mcid=…) and writes
// (POST /game-server/userkeys) from 4 clients for 3 s alone, then again while the CLI imports
// the generated history; prints p50/p99/max of each phase as one JSON object.
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { arg, load: loadClients } = require('./import-load');

const ROOT = join(__dirname, '..');
const rows = Number(arg('rows', '200000'));
const players = Number(arg('players', '20000'));
const batchSize = arg('batch-size', undefined);
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(join(tmpdir(), 'import-latency-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false', APP_VERSION: 'bench', NODE_ENV: 'development', ENV_FILE: '' };


function load(key, until) {
  return loadClients({ base, key, until, readPath: (n) => `/users?mcid=player_${n % players}` });
}

async function main() {
  const file = join(dir, 'logins.csv');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'generate-logins.js'), '--rows', String(rows), '--players', String(players), '--out', file], { stdio: 'ignore' });
  const created = execFileSync(process.execPath, [join(ROOT, 'scripts', 'cli.js'), 'apikey:create', '--name', 'bench', '--scope', 'game-server', '--json'], { env });
  const { key } = JSON.parse(created.toString());
  const server = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (let tries = 0; ; tries += 1) {
      const up = await fetch(`${base}/health/ready`).then((r) => r.ok, () => false);
      if (up) {break;}
      if (tries > 200) {throw new Error('server did not start');}
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const quietUntil = Date.now() + 3000;
    const quiet = await load(key, () => Date.now() > quietUntil);
    const importArgs = [join(ROOT, 'scripts', 'cli.js'), 'import:logins', '--file', file, '--json', ...(batchSize ? ['--batch-size', batchSize] : [])];
    const started = Date.now();
    let importing = true;
    const importer = spawn(process.execPath, importArgs, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    importer.stdout.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => importer.on('exit', (code) => { importing = false; resolve(code); }));
    const during = await load(key, () => !importing);
    const code = await exited;
    const summary = JSON.parse(output || '{}');
    process.stdout.write(`${JSON.stringify({ rows, players, batchSize: batchSize ?? 'default', importExit: code, importSeconds: (Date.now() - started) / 1000, accepted: summary.accepted, quiet, duringImport: during }, null, 2)}\n`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.on('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
