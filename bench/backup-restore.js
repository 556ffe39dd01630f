#!/usr/bin/env node
// node bench/backup-restore.js — backup and restore at the scale the docs quote
// (docs/backup-and-restore.md, Speed): 1,000,000 login records, 50,000 players, 2,000 cities.
//
// 1. Seeds a fresh source database (BENCH_SOURCE=sqlite, the default, or mysql; MariaDB at
//    BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306) straight into its tables, cities
//    through the API.
// 2. Starts the service as its own process and a load generator in another (bench/load.js,
//    autocannon) reading cities and users at a steady rate, and takes `backup` meanwhile: the
//    backup's time, the CLI's peak RSS, and the service's p99 in 5-second windows during the
//    backup (and before it, as the baseline).
// 3. Stops the service and restores the file into the source database (replacing it) and into a
//    fresh database of the other kind: each restore's time and the CLI's peak RSS.
// BENCH_SCALE=0.1 runs a tenth of the data set (quick look); BENCH_RATE (requests/s, default 200).
const { fork, spawn, spawnSync } = require('node:child_process');
const { createServer } = require('node:http');
const { existsSync, mkdtempSync, readFileSync, rmSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { seed, seedCities, uuidFor } = require('./seed');
const { startService, stopService } = require('./service-process');

const root = join(__dirname, '..');
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const SIZE = { players: Math.round(50_000 * SCALE), loginsPerPlayer: 20, cities: Math.round(2_000 * SCALE) };
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SOURCE = process.env.BENCH_SOURCE === 'mysql' ? 'mysql' : 'sqlite';
const MYSQL = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');
const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const dir = mkdtempSync(join(tmpdir(), 'community-bench-backup-'));

async function database(kind, label) {
  if (kind === 'sqlite') {
    const file = join(dir, `${label}.sqlite`);
    return {
      kind,
      url: `sqlite:${file}`,
      open: () => {
        const Database = require('better-sqlite3');
        const db = new Database(file);
        db.pragma('journal_mode = WAL');
        return db;
      },
      close: async (db) => db.close(),
      drop: async () => undefined,
    };
  }
  const mysql = require('mysql2/promise');
  const name = `community_bench_${label}_${process.pid}`;
  const admin = await mysql.createConnection(MYSQL);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const url = `${MYSQL}/${name}`;
  return {
    kind,
    url,
    open: () => mysql.createConnection(url),
    close: (db) => db.end(),
    drop: async () => {
      const again = await mysql.createConnection(MYSQL);
      const [rows] = await again.query('SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [`${name}%`]);
      for (const { name: each } of rows) {
        await again.query(`DROP DATABASE IF EXISTS \`${each}\``);
      }
      await again.end();
    },
  };
}

function cli(args, env) {
  const result = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'main.js'), ...args, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`cli ${args.join(' ')} failed: ${result.stdout} ${result.stderr}`);
  }
  return JSON.parse(result.stdout);
}

function rssOf(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** A CLI command as its own process: its time and its peak RSS (sampled every 50 ms). */
function timedCli(args, env) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [join(root, 'dist', 'cli', 'main.js'), ...args, '--json'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid))), 50);
    child.on('exit', (code) => {
      clearInterval(sampler);
      const seconds = (Date.now() - started) / 1000;
      if (code !== 0) {
        reject(new Error(`cli ${args.join(' ')} exited ${code}: ${out} ${err}`));
        return;
      }
      resolve({ seconds: Number(seconds.toFixed(1)), peakRssMb: Math.round(peak / 1024 / 1024), result: JSON.parse(out) });
    });
  });
}

function startCaptcha() {
  return new Promise((resolve) => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success: true, score: 0.9, action: 'submit', hostname: 'localhost' }));
      });
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/siteverify` }));
  });
}




/** 5-second load windows, back to back, until `done()` says stop: each window's p99 and errors. */
async function loadWhile(load, base, paths, headers, done) {
  const windows = [];
  while (!done()) {
    windows.push(await load.measure({ url: base, paths, headers, connections: 10, duration: 5, overallRate: RATE }));
  }
  return windows;
}

function startLoad() {
  const child = fork(join(__dirname, 'load.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  let next = 0;
  child.on('message', ({ id, result, error }) => {
    const { resolve, reject } = waiting.get(id);
    waiting.delete(id);
    if (error) {
      reject(new Error(error));
    } else {
      resolve(result);
    }
  });
  return {
    child,
    measure: (job) =>
      new Promise((resolve, reject) => {
        next += 1;
        waiting.set(next, { resolve, reject });
        child.send({ id: next, ...job });
      }),
  };
}

async function main() {
  if (!existsSync(join(root, 'dist', 'cli', 'main.js')) || process.env.BENCH_BUILD !== '0') {
    log('building');
    if (spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 2, 2] }).status !== 0) {
      throw new Error('build failed');
    }
  }
  const source = await database(SOURCE, 'source');
  const other = await database(SOURCE === 'sqlite' ? 'mysql' : 'sqlite', 'other');
  const captcha = await startCaptcha();
  const env = {
    ENV_FILE: '',
    DATABASE_URL: source.url,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    RECAPTCHA_SECRET: 'bench-secret',
    RECAPTCHA_VERIFY_URL: captcha.url,
    PORT: String(40000 + Math.floor(Math.random() * 10000)),
  };
  const results = { source: SOURCE, size: { players: SIZE.players, loginRecords: SIZE.players * SIZE.loginsPerPlayer, cities: SIZE.cities }, rate: RATE };
  try {
    log(`source ${SOURCE}: seeding ${JSON.stringify(results.size)}`);
    cli(['migration:run'], env);
    const operatorKey = cli(['apikey:create', '--name', 'bench-operator', '--scope', 'operator'], env).key;
    const db = await source.open();
    const seeded = Date.now();
    await seed({ kind: SOURCE, db, players: SIZE.players, loginsPerPlayer: SIZE.loginsPerPlayer, clubAccounts: Math.max(SIZE.cities, 10), bannedPlayers: 1_000, bans: 5_000, passwordHash: 'not-used', log });
    await source.close(db);
    const service = await startService(env);
    const cityIds = (await seedCities(service.base, operatorKey, SIZE.cities)).map((city) => city.id);
    log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    const paths = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? `/cities/${cityIds[Math.floor(Math.random() * cityIds.length)]}` : `/users/${uuidFor(Math.floor(Math.random() * SIZE.players))}`));
    const headers = { 'x-api-key': operatorKey };
    const load = startLoad();
    const baseline = await load.measure({ url: service.base, paths, headers, connections: 10, duration: 10, overallRate: RATE });
    log(`baseline: p99 ${baseline.p99} ms at ${Math.round(baseline.rps)} req/s`);

    const out = join(dir, 'bench.backup');
    let finished = false;
    const during = loadWhile(load, service.base, paths, headers, () => finished);
    const backup = await timedCli(['backup', '--out', out], env).finally(() => (finished = true));
    const windows = await during;
    load.child.kill();
    await stopService(service);
    results.backup = {
      seconds: backup.seconds,
      peakRssMb: backup.peakRssMb,
      fileMb: Number((statSync(out).size / 1024 / 1024).toFixed(1)),
      rows: backup.result.rows,
      serverP99BaselineMs: baseline.p99,
      serverP99DuringMs: windows.map((window) => window.p99),
      serverErrorsDuring: windows.reduce((sum, window) => sum + window.errors, 0),
    };
    log(`backup: ${JSON.stringify(results.backup)}`);

    const same = await timedCli(['restore', '--from', out], env);
    results.restoreIntoSource = { database: SOURCE, seconds: same.seconds, peakRssMb: same.peakRssMb };
    log(`restore into ${SOURCE} (replacing it): ${same.seconds} s, ${same.peakRssMb} MB`);
    const cross = await timedCli(['restore', '--from', out], { ...env, DATABASE_URL: other.url });
    results.restoreIntoOther = { database: other.kind, seconds: cross.seconds, peakRssMb: cross.peakRssMb };
    log(`restore into ${other.kind} (empty): ${cross.seconds} s, ${cross.peakRssMb} MB`);
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    captcha.server.close();
    await source.drop();
    await other.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
