#!/usr/bin/env node
// npm run soak — mixed read and write traffic against a locally started service for SOAK_SECONDS
// (default 300), asserting zero 5xx answers and resident memory growth under 10 % after warm-up.
// Not part of npm test.
//
// The service is compiled from src with swc into a temporary directory (what `nest build` does;
// the shared dist/ is left alone), started as its own process on loopback, and driven by
// autocannon from this process. Rate limiting is off for the run (all traffic comes from one
// address); CAPTCHA verification is off (RECAPTCHA_SECRET unset).
//
// Environment: SOAK_SECONDS (300), SOAK_CONNECTIONS (10), SOAK_SIGN_IN_PERCENT (2: share of argon2 sign-ins), SOAK_WARMUP_SECONDS (min(30, SOAK_SECONDS / 5)),
// SOAK_DATABASE_URL (default a fresh SQLite file; a mysql:// URL names a server on which a fresh
// database is created and dropped). Exit status 0 when both assertions hold, 1 otherwise.
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');
const autocannon = require('autocannon');

const root = join(__dirname, '..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 10);
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS ?? Math.min(30, Math.max(2, Math.round(SECONDS / 5))));
const SIGN_IN_PERCENT = Number(process.env.SOAK_SIGN_IN_PERCENT ?? 2);
const USERS = 20;
/** Accounts used only for sign-ins: a sign-in supersedes the account's older token. */
const SIGN_IN_USERS = 5;
const PASSWORD = 'soak-password-1';
const log = (message) => process.stderr.write(`[soak] ${message}\n`);
const pick = (items) => items[Math.floor(Math.random() * items.length)];

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function prepareDatabase() {
  const url = process.env.SOAK_DATABASE_URL;
  if (url && /^(mysql|mariadb):/.test(url)) {
    const mysql = require('mysql2/promise');
    const server = new URL(url.replace(/^mariadb:/, 'mysql:'));
    const name = `community_soak_${Date.now()}`;
    server.pathname = '';
    const admin = await mysql.createConnection(server.toString());
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    return {
      url: `${server.toString().replace(/\/$/, '')}/${name}`,
      drop: async () => {
        const again = await mysql.createConnection(server.toString());
        await again.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await again.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'community-soak-db-'));
  return { url: `sqlite:${join(dir, 'soak.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

function build() {
  const out = mkdtempSync(join(tmpdir(), 'community-soak-build-'));
  execFileSync(process.execPath, [require.resolve('@swc/cli/bin/swc.js'), 'src', '-d', out, '--strip-leading-paths', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return out;
}

function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

async function request(base, method, path, body, headers = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status >= 400) {
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  }
  return json;
}

function newPlayer(index) {
  return { uuid: randomUUID(), mcid: `soak_${index}_${Math.random().toString(36).slice(2, 7)}` };
}

/** One request of the mix, chosen per request: reads of every kind, single-row and batch writes, a few sign-ins. */
function mixedRequest(context) {
  const roll = Math.random() * 100;
  const json = (method, path, body, headers = {}) => ({ method, path, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  const user = pick(context.users);
  const gameServer = { 'x-api-key': context.apiKey };
  if (roll < 10) {
    return json('GET', '/health');
  }
  if (roll < 15) {
    return json('GET', '/health/ready');
  }
  if (roll < 35) {
    return json('GET', '/club/@me', undefined, { authorization: `Bearer ${user.usertoken}` });
  }
  if (roll < 45) {
    return json('GET', `/users?mcid=${encodeURIComponent(user.mcid)}`);
  }
  if (roll < 55) {
    return json('GET', '/cities');
  }
  if (roll < 70) {
    const player = newPlayer('k');
    return json('POST', '/game-server/userkeys', player, gameServer);
  }
  if (roll < 85) {
    return json('POST', '/club/nickname', { nickname: `Soak ${Math.floor(Math.random() * 1e6)}`, recaptcha: 'x' }, { authorization: `Bearer ${user.usertoken}` });
  }
  if (roll < 100 - context.signInPercent) {
    const loggedInAt = new Date(Date.now() - Math.floor(Math.random() * 1e9)).toISOString();
    return json('POST', '/game-server/logins', { logins: [{ uuid: user.uuid, mcid: user.mcid, loggedInAt }] }, gameServer);
  }
  // Sign-ins are few: each costs an argon2id hash (19 MiB, ~50 ms).
  return json('POST', '/club/token', { username: pick(context.signInUsers).mcid, password: PASSWORD, recaptcha: 'x' });
}

function drive(base, context, seconds) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [{ setupRequest: (req) => ({ ...req, ...mixedRequest(context) }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

async function main() {
  log(`building into a temporary directory`);
  const buildDir = build();
  const database = await prepareDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    NODE_PATH: join(root, 'node_modules'),
    ENV_FILE: '', // no developer's .env reaches the soaked server (docs/env-file.md)
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    APP_VERSION: 'soak',
  };
  const cli = spawnSync(process.execPath, [join(buildDir, 'cli', 'main.js'), 'migration:run', '--json'], { env, encoding: 'utf8' });
  if (cli.status !== 0) {
    throw new Error(`migrations failed: ${cli.stdout} ${cli.stderr}`);
  }
  const keyRun = spawnSync(process.execPath, [join(buildDir, 'cli', 'main.js'), 'apikey:create', '--name', 'soak', '--scope', 'game-server', '--json'], { env, encoding: 'utf8' });
  if (keyRun.status !== 0) {
    throw new Error(`apikey:create failed: ${keyRun.stdout} ${keyRun.stderr}`);
  }
  const apiKey = JSON.parse(keyRun.stdout).key;

  const server = spawn(process.execPath, [join(buildDir, 'main.js')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let serverErrors = '';
  server.stderr.on('data', (chunk) => (serverErrors += chunk.toString('utf8')));
  const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    for (let attempt = 0; ; attempt += 1) {
      const up = await fetch(`${base}/health`).then((response) => response.ok, () => false);
      if (up) {
        break;
      }
      if (attempt > 200) {
        throw new Error(`the service did not start: ${serverErrors}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    log(`seeding ${USERS + SIGN_IN_USERS} club accounts`);
    const users = [];
    for (let index = 0; index < USERS + SIGN_IN_USERS; index += 1) {
      const player = newPlayer(index);
      await request(base, 'POST', '/game-server/logins', { logins: [{ ...player, loggedInAt: new Date().toISOString() }] }, { 'x-api-key': apiKey });
      const { userkey } = await request(base, 'POST', '/game-server/userkeys', player, { 'x-api-key': apiKey });
      const { usertoken } = await request(base, 'POST', '/club/register', { userkey, password: PASSWORD, recaptcha: 'x' });
      users.push({ ...player, usertoken });
    }
    const context = { users: users.slice(0, USERS), signInUsers: users.slice(USERS), apiKey, signInPercent: SIGN_IN_PERCENT };

    log(`warm-up ${WARMUP} s, ${CONNECTIONS} connections`);
    await drive(base, context, WARMUP);
    const samples = [];
    const sampler = setInterval(() => samples.push(rssBytes(server.pid)), 1000);
    const rssStart = rssBytes(server.pid);
    log(`soak ${SECONDS} s from RSS ${(rssStart / 1048576).toFixed(1)} MiB`);
    const result = await drive(base, context, SECONDS);
    clearInterval(sampler);
    // A few seconds idle, then the end value as the median of three readings (one GC cycle is not growth).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const tail = [];
    for (let index = 0; index < 3; index += 1) {
      tail.push(rssBytes(server.pid));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const rssEnd = tail.sort((a, b) => a - b)[1];
    const rssMax = Math.max(rssStart, ...samples, ...tail);
    const growth = (rssEnd - rssStart) / rssStart;
    const statusCounts = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]));
    const serverErrorsCount = result['5xx'];
    const summary = {
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      connections: CONNECTIONS,
      database: database.url.startsWith('sqlite:') ? 'sqlite' : 'mysql',
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      statusCounts,
      '5xx': serverErrorsCount,
      transportErrors: result.errors,
      timeouts: result.timeouts,
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      rssMiB: { start: +(rssStart / 1048576).toFixed(1), end: +(rssEnd / 1048576).toFixed(1), max: +(rssMax / 1048576).toFixed(1) },
      rssGrowthPercent: +(growth * 100).toFixed(2),
    };
    const passed = serverErrorsCount === 0 && result.errors === 0 && growth < 0.1;
    process.stdout.write(`${JSON.stringify({ ...summary, passed }, null, 2)}\n`);
    log(passed ? 'PASS: zero 5xx, RSS growth under 10 %' : 'FAIL');
    process.exitCode = passed ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
    const { code } = await exited;
    if (code !== 0) {
      log(`the service exited with ${code}: ${serverErrors.slice(-2000)}`);
      process.exitCode = 1;
    }
    await database.drop();
    rmSync(buildDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
