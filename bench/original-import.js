#!/usr/bin/env node
// `import:original` at scale (docs/benchmarks.md, "Importing the original database"): builds a MariaDB source in the
// original layout with --rows login rows (2 % of them refused logins) over --players players and
// --cities cities, then imports it into a fresh target while a running server answers reads and
// writes from 4 clients. Prints the import's time and peak RSS and the server's latency as JSON.
//   npm run build && node bench/original-import.js [--target sqlite|mysql] [--rows 1000000] [--players 50000] [--cities 2000]
//     [--sessions 0]   rows of the players site's largest table, `daily-onlinetime` (one per session)
// Needs MariaDB on 127.0.0.1:3306 (root, no password; BENCH_MYSQL_URL to change) for the source,
// and for the target with --target mysql. Everything it creates is dropped at the end.
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { arg, load: loadClients } = require('./import-load');
const { createConnection } = require('mysql2/promise');

const ROOT = join(__dirname, '..');
const target = arg('target', 'sqlite');
const rows = Number(arg('rows', '1000000'));
const players = Number(arg('players', '50000'));
const cities = Number(arg('cities', '2000'));
const sessions = Number(arg('sessions', '0'));
const ADMIN_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const suffix = `${process.pid}_${Date.now().toString(36)}`;
const sourceDb = `bench_original_${suffix}`;
const targetDb = `bench_target_${suffix}`;
const dir = mkdtempSync(join(tmpdir(), 'original-import-'));

async function buildSource(admin) {
  await admin.query(`CREATE DATABASE \`${sourceDb}\` CHARACTER SET utf8mb4`);
  await admin.query(`USE \`${sourceDb}\``);
  await admin.query(
    'CREATE TABLE login (id INT AUTO_INCREMENT PRIMARY KEY, player VARCHAR(32), uuid VARCHAR(64), ip VARCHAR(64), host VARCHAR(255), countryName VARCHAR(64), city VARCHAR(64), ' +
      'permission VARCHAR(64), date DATETIME NULL, login_success TINYINT(1) NOT NULL DEFAULT 0)',
  );
  await admin.query(
    'CREATE TABLE cities (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(255), namekana VARCHAR(255), regionname VARCHAR(255), player VARCHAR(32), uuid VARCHAR(64) NULL, ' +
      'summary TEXT, name_origin TEXT, blocknum VARCHAR(32), corners TEXT, reason TEXT, created_at DATETIME NULL, updated_at DATETIME NULL)',
  );
  // MariaDB's sequence engine makes the rows server-side: one statement per 100,000.
  const uuid = (expression) => `CONCAT('00000000-0000-4000-8000-', LPAD(HEX(${expression}), 12, '0'))`;
  for (let from = 1; from <= rows; from += 100_000) {
    const to = Math.min(rows, from + 99_999);
    await admin.query(
      `INSERT INTO login (player, uuid, ip, host, countryName, city, permission, date, login_success) ` +
        `SELECT CONCAT('player_', seq % ${players}), ${uuid(`seq % ${players}`)}, '203.0.113.7', 'host.example', 'Japan', 'Tokyo', 'Default', ` +
        `TIMESTAMP('2018-03-20 00:00:00') + INTERVAL seq * 3 MINUTE, IF(seq % 50 = 0, 0, 1) FROM seq_${from}_to_${to}`,
    );
  }
  if (sessions > 0) {
    // The original's play-time log: a row per session, written as it ended (created_at its end).
    await admin.query('CREATE TABLE `daily-onlinetime` (id INT AUTO_INCREMENT PRIMARY KEY, uuid VARCHAR(64), onlinetime INT, created_at DATETIME NULL)');
    for (let from = 1; from <= sessions; from += 100_000) {
      const to = Math.min(sessions, from + 99_999);
      await admin.query(
        `INSERT INTO \`daily-onlinetime\` (uuid, onlinetime, created_at) ` +
          `SELECT ${uuid(`seq % ${players}`)}, 300 + seq % 10000, TIMESTAMP('2019-01-01 00:00:00') + INTERVAL seq * 2 MINUTE FROM seq_${from}_to_${to}`,
      );
    }
  }
  await admin.query(
    `INSERT INTO cities (id, name, namekana, regionname, player, uuid, corners, blocknum, created_at) ` +
      `SELECT seq, CONCAT('City ', seq), CONCAT('してぃ', REPEAT('い', seq % 7), REPEAT('ろ', seq DIV 7 % 7), REPEAT('は', seq DIV 49 % 7), REPEAT('に', seq DIV 343)), CONCAT('city_', seq), CONCAT('player_', seq % ${players}), ${uuid(`seq % ${players}`)}, ` +
      `CONCAT('[{"id":1,"x":"', seq * 100, '","z":"0"},{"id":2,"x":"', seq * 100, '","z":"9"},{"id":3,"x":"', seq * 100 + 9, '","z":"9"},{"id":4,"x":"', seq * 100 + 9, '","z":"0"}]'), ` +
      `'100', '2020-01-01 00:00:00' FROM seq_1_to_${cities}`,
  );
}

function load(key, until) {
  return loadClients({ base, key, until, readPath: (n) => (n % 2 === 0 ? `/users?mcid=player_${n % players}` : `/cities/${1 + (n % cities)}`) });
}

/**
 * Peak resident memory and CPU time of a process, polled from /proc. The CPU time is the figure a
 * busy shared machine does not distort: on SQLite nearly all of the import's work is in-process.
 */
function processWatcher(pid) {
  let peak = 0;
  let cpuTicks = 0;
  const timer = setInterval(() => {
    try {
      const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kib);
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      cpuTicks = Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone.
    }
  }, 100);
  return () => {
    clearInterval(timer);
    return { peakRssMiB: Math.round(peak / 1024), cpuSeconds: cpuTicks / 100 };
  };
}

let base;

async function main() {
  const admin = await createConnection(ADMIN_URL);
  const port = 3900 + Math.floor(Math.random() * 90);
  base = `http://127.0.0.1:${port}`;
  let server;
  try {
    const built = Date.now();
    await buildSource(admin);
    const sourceSeconds = (Date.now() - built) / 1000;
    let databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
    if (target === 'mysql') {
      await admin.query(`CREATE DATABASE \`${targetDb}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      databaseUrl = `${ADMIN_URL}/${targetDb}`;
    }
    const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false', APP_VERSION: 'bench', NODE_ENV: 'development' };
    const created = execFileSync(process.execPath, [join(ROOT, 'scripts', 'cli.js'), 'apikey:create', '--name', 'bench', '--scope', 'game-server', '--json'], { env });
    const { key } = JSON.parse(created.toString());
    server = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    for (let tries = 0; ; tries += 1) {
      if (await fetch(`${base}/health/ready`).then((r) => r.ok, () => false)) {
        break;
      }
      if (tries > 300) {
        throw new Error('server did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const quietUntil = Date.now() + 3000;
    const quiet = await load(key, () => Date.now() > quietUntil);
    const loadAverageAtStart = require('node:os').loadavg();
    const started = Date.now();
    let importing = true;
    const importer = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'import:original', '--from', `${ADMIN_URL}/${sourceDb}`, '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const watched = processWatcher(importer.pid);
    let output = '';
    importer.stdout.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) =>
      importer.on('exit', (code) => {
        importing = false;
        resolve(code);
      }),
    );
    const during = await load(key, () => !importing);
    const code = await exited;
    const importSeconds = (Date.now() - started) / 1000;
    const report = JSON.parse(output || '{}');
    process.stdout.write(
      `${JSON.stringify({ target, rows, sessions, players, cities, sourceSeconds, importExit: code, importSeconds, ...(({ peakRssMiB, cpuSeconds }) => ({ importPeakRssMiB: peakRssMiB, importCpuSeconds: cpuSeconds }))(watched()), tables: report.tables, problems: report.problems?.length, loadAverageAtStart, loadAverage: require('node:os').loadavg(), quiet, duringImport: during }, null, 2)}\n`,
    );
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.on('exit', resolve));
    }
    await admin.query(`DROP DATABASE IF EXISTS \`${sourceDb}\``);
    await admin.query(`DROP DATABASE IF EXISTS \`${targetDb}\``);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
