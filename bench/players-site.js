#!/usr/bin/env node
// The players site's reads at the size of a real community (docs/players-site.md, "Speed").
//   npm run build && node bench/players-site.js [--target sqlite|mysql] [--players 50000]
//     [--sessions 1000000] [--logins 1000000] [--duration 5] [--connections 10] [--routes info,data]
//   BENCH_KEEP_DATABASE=1 keeps the MariaDB database for a look afterwards (drop it yourself);
//   --database NAME measures such a kept database again, without building it (it is not dropped).
//   BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server (bench/profile-summary.js reads it).
// Builds a database of its own (a temporary SQLite file, or a MariaDB database `bench_site_<pid>`
// dropped at the end; never the configured one): logins through `import:logins`, the rest through
// the game-server and chat-bot routes, as a live server receives them. Then, for each route the
// site's player page calls, 10 connections read it for `duration` seconds over many players
// (autocannon in a process of its own: bench/load.js), and one JSON object gives each route's
// rate and p50/p99 in ms.
'use strict';

const { execFileSync, fork, spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createConnection } = require('mysql2/promise');
const { arg } = require('./import-load');

const ROOT = join(__dirname, '..');
const target = arg('target', 'sqlite');
const players = Number(arg('players', '50000'));
const sessions = Number(arg('sessions', '1000000'));
const logins = Number(arg('logins', '1000000'));
const duration = Number(arg('duration', '5'));
const connections = Number(arg('connections', '10'));
/** Only these routes (names as in the output), for profiling one of them. */
const onlyRoutes = arg('routes', '') ? new Set(arg('routes', '').split(',')) : undefined;
const ADMIN_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(join(tmpdir(), 'players-site-bench-'));
/** A database kept by an earlier run (BENCH_KEEP_DATABASE), measured again without seeding. */
const reusedDatabase = arg('database', '');
const mysqlDatabase = reusedDatabase || `bench_site_${process.pid}`;
const DAY = 86_400_000;
/** The newest data: "now" for the heatmap's last 366 days. */
const NOW = Date.now();

function uuidOf(index) {
  return `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
}

let seed = 7;
function random() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

function cli(env, ...args) {
  return execFileSync(process.execPath, [join(ROOT, 'scripts', 'cli.js'), ...args], { env, maxBuffer: 64 * 1024 * 1024 }).toString();
}

/** 503 answers during seeding, by route: a sender tries again after Retry-After, as a game server's plugin would. */
const retriedAfter503 = {};

async function post(path, key, body) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
    if (response.status === 200) {
      return;
    }
    const text = await response.text();
    if (response.status !== 503 || attempt === 5) {
      throw new Error(`${path}: ${response.status} ${text}`);
    }
    retriedAfter503[path] = (retriedAfter503[path] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
}

/** Sends `count` items made by `make(i)` in batches of 1000, four batches at a time. */
async function sendBatches(path, key, field, count, make, extra = {}) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const from = next;
      next = Math.min(count, next + 1000);
      const items = [];
      for (let i = from; i < next; i += 1) {
        items.push(make(i));
      }
      await post(path, key, { ...extra, [field]: items });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

async function seed_(key, botKey) {
  const started = Date.now();
  // Sessions over the last 400 days, 5 minutes to 3 hours each; every player has some.
  await sendBatches('/game-server/sessions', key, 'sessions', sessions, (i) => {
    const player = i % players;
    const start = NOW - 400 * DAY + Math.floor(random() * 399 * DAY);
    const seconds = 300 + Math.floor(random() * 3 * 3600);
    return { id: `bench-${i}`, uuid: uuidOf(player), mcid: `player_${player}`, startedAt: new Date(start).toISOString(), endedAt: new Date(start + seconds * 1000).toISOString() };
  });
  const sessionsDone = Date.now();
  await sendBatches('/game-server/away-time', key, 'away', players, (i) => ({ id: `afk-${i}`, uuid: uuidOf(i), mcid: `player_${i}`, seconds: 60 + (i % 5000), at: new Date(NOW - (i % 300) * DAY).toISOString() }));
  // Votes: 4 per player on average on the first site, 2 on the second, so counts and ranks spread.
  const [first, second] = ['minecraft.jp', 'monocraft.net'];
  await sendBatches('/game-server/votes', key, 'votes', players * 6, (i) => ({
    id: `vote-${i}`,
    uuid: uuidOf(Math.floor(random() * players)),
    site: i % 3 === 0 ? second : first,
    votedAt: new Date(NOW - 400 * DAY + i * 1000).toISOString(),
  }));
  await sendBatches('/game-server/group-changes', key, 'groupChanges', players / 5, (i) => ({ id: `group-${i}`, uuid: uuidOf(i * 5), group: i % 10 === 0 ? 'moderator' : 'verified', at: new Date(NOW - DAY).toISOString() }));
  const kinds = ['jail', 'chatjail', 'eban', 'vban'];
  await sendBatches('/game-server/punishments', key, 'punishments', players / 2, (i) => ({
    id: `punishment-${i}`,
    kind: kinds[i % 4],
    uuid: uuidOf(Math.floor(random() * players)),
    mcid: 'someone',
    reason: 'griefing',
    issuedBy: 'Moderator1',
    issuedAt: new Date(NOW - 300 * DAY + i * 60_000).toISOString(),
  }));
  await sendBatches('/game-server/mini-games/periodmatch', key, 'results', players, (i) => {
    const end = NOW - 200 * DAY + i * 60_000;
    return { id: `pm-${i}`, uuid: uuidOf(i % players), mcid: `player_${i % players}`, success: i % 20, failure: i % 7, matchTime: [10, 30, 60][i % 3], realMatchTime: 31, calcMatchTime: 30000 + (i % 997), startTime: new Date(end - 31_000).toISOString(), endTime: new Date(end).toISOString() };
  });
  await sendBatches('/chat-bot/accounts', botKey, 'accounts', players / 5, (i) => ({ id: `account-${i}`, chatid: String(100000000000000000n + BigInt(i)), name: `chat_${i}`, reportedAt: new Date(NOW - DAY).toISOString() }));
  await sendBatches('/chat-bot/profile-links', botKey, 'links', players / 5, (i) => ({ id: `links-${i}`, uuid: uuidOf(i * 5), githubId: `gh${i}`, homeUrl: `https://example.org/${i}` }));
  return { sessionsSeconds: Math.round((sessionsDone - started) / 100) / 10, restSeconds: Math.round((Date.now() - sessionsDone) / 100) / 10, retriedAfter503 };
}

function measure(generator, paths) {
  return new Promise((resolve, reject) => {
    const id = Math.random();
    generator.once('message', (message) => (message.error ? reject(new Error(message.error)) : resolve(message.result)));
    generator.send({ id, url: base, paths, connections, duration });
  });
}

function startServer(env, nodeFlags) {
  return spawn(process.execPath, [...nodeFlags, join(ROOT, 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** SIGINT: the server shuts down in order, and a --cpu-prof profile is written. */
async function stopServer(server) {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT');
    await exited;
  }
}

async function ready() {
  for (let tries = 0; ; tries += 1) {
    if (await fetch(`${base}/health/ready`).then((r) => r.ok, () => false)) {
      return;
    }
    if (tries > 300) {
      throw new Error('server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main() {
  let databaseUrl = `sqlite:${join(dir, 'site.sqlite')}`;
  if (reusedDatabase && target !== 'mysql') {
    throw new Error('--database is for --target mysql');
  }
  if (target === 'mysql' && !reusedDatabase) {
    const admin = await createConnection(ADMIN_URL);
    await admin.query(`CREATE DATABASE \`${mysqlDatabase}\` CHARACTER SET utf8mb4`);
    await admin.end();
  }
  if (target === 'mysql') {
    databaseUrl = `${ADMIN_URL}/${mysqlDatabase}`;
  }
  const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false', APP_VERSION: 'bench', NODE_ENV: 'development', ENV_FILE: '' };
  let importSeconds = null;
  if (!reusedDatabase) {
    const loginFile = join(dir, 'logins.csv');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'generate-logins.js'), '--rows', String(logins), '--players', String(players), '--out', loginFile], { stdio: 'ignore' });
    const importStarted = Date.now();
    cli(env, 'import:logins', '--file', loginFile, '--json');
    importSeconds = Math.round((Date.now() - importStarted) / 100) / 10;
  }
  // Names of this run's own: a reused database holds the keys of the run that built it.
  const key = JSON.parse(cli(env, 'apikey:create', '--name', `bench-${process.pid}`, '--scope', 'game-server', '--json')).key;
  const botKey = JSON.parse(cli(env, 'apikey:create', '--name', `bench-bot-${process.pid}`, '--scope', 'chat-bot', '--json')).key;
  let server = startServer(env, []);
  const generator = fork(join(__dirname, 'load.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    await ready();
    const seeding = reusedDatabase ? 'reused' : await seed_(key, botKey);
    // 1,000 players picked across the whole range, each path in turn on every connection; each
    // logs in once more, so that every one of them is known (the generated history leaves a few out).
    const sample = Array.from({ length: 1000 }, (_, i) => uuidOf(Math.floor((i * players) / 1000)));
    await post('/game-server/logins', key, { logins: sample.map((uuid, i) => ({ uuid, mcid: `player_${Math.floor((i * players) / 1000)}`, loggedInAt: new Date(NOW - DAY).toISOString() })) });
    const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    if (nodeFlags.length > 0) {
      // A server of its own for the reads, so that a profile holds the reads and not the seeding.
      await stopServer(server);
      server = startServer(env, nodeFlags);
      await ready();
    }
    const routes = {
      'v2/users/{id}': sample.map((uuid) => `/v2/users/${uuid}`),
      'search/prefix': sample.map((_, i) => `/v2/users/search/prefix?mcid=player_${100 + (i % 900)}`),
      'recentLogin': ['/v2/users/recentLogin'],
      'recentLogin?uuid': sample.map((uuid) => `/v2/users/recentLogin?uuid=${uuid}`),
      'daily-online': sample.map((uuid) => `/v2/users/daily-online?uuid=${uuid}`),
      'data': sample.map((uuid) => `/v2/users/data/${uuid}`),
      'info': sample.map((uuid) => `/v2/users/info/${uuid}`),
      'discord': sample.map((uuid) => `/v2/users/discord/${uuid}`),
      'punishment': sample.map((uuid) => `/v2/users/punishment/${uuid}`),
      'pm_recently': sample.map((uuid) => `/users/pm_recently/${uuid}`),
      'jsa': sample.map((uuid) => `/v1/users/jsa/${uuid}`),
      // The mirror holds no record here: every answer is the 404 the site reads as a clean record.
      'mcbans (404)': sample.map((uuid) => `/v1/users/mcbans/${uuid}`),
    };
    const results = {};
    for (const [name, paths] of Object.entries(routes).filter(([name]) => !onlyRoutes || onlyRoutes.has(name))) {
      const result = await measure(generator, paths);
      results[name] = { rps: Math.round(result.rps), p50: result.p50, p99: result.p99, errors: result.errors, statusCodes: result.statusCodes };
    }
    console.log(JSON.stringify({ target, players, sessions, logins, connections, duration, importLoginsSeconds: importSeconds, seeding, results }, null, 2));
  } finally {
    generator.kill();
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
    if (target === 'mysql' && !process.env.BENCH_KEEP_DATABASE && !reusedDatabase) {
      const admin = await createConnection(ADMIN_URL);
      await admin.query(`DROP DATABASE IF EXISTS \`${mysqlDatabase}\``);
      await admin.end();
    }
  }
}

main().catch((error) => {
  console.error(error);
  // A failure before the reads (a seeding step) leaves the temporary folder behind otherwise.
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});
