#!/usr/bin/env node
// `npm run test:cluster`: three replicas of the service (`node dist/main.js`) on one fresh
// MariaDB database and one Redis, behind HAProxy, all on this machine without Docker. Proves
// through the balancer that the replicas behave as one service: reads see every write on every
// replica, limits are shared, one ban-list run at a time, a replica stopped with SIGTERM under
// load loses no acknowledged write and leaves the rotation, a late replica joins without running
// migrations again. Prints figures (requests, 5xx, latencies) and `N passed, N failed`; exits 1
// on any failure. Every process it starts is stopped on exit, the database dropped and the Redis
// keys of the run deleted.
//
// Environment: CLUSTER_MYSQL_URL (mysql://root@127.0.0.1:3306), CLUSTER_REDIS_URL
// (redis://127.0.0.1:6379), CLUSTER_SKIP_BUILD=1 to reuse dist/, CLUSTER_KEEP_LOGS=1 to keep the
// log folder.
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes, randomInt } = require('node:crypto');
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } = require('node:fs');
const http = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createConnection } = require('mysql2/promise');
const Redis = require('ioredis');
const { freePort } = require('./free-port');

const root = join(__dirname, '..');
const MYSQL_URL = (process.env.CLUSTER_MYSQL_URL ?? process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
const REDIS_BASE = (process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '');
/** HAProxy connects to the replicas from this address; the replicas trust exactly it (TRUST_PROXY). */
const BALANCER_SOURCE = '127.0.0.100';
/** Every client address of this run is 127.<RUN_OCTET>.x.y, so its Redis keys are its own. */
const RUN_OCTET = randomInt(101, 250);
const REPLICAS = ['app1', 'app2', 'app3'];
const LATE_REPLICA = 'app4';
/** Start every replica at the same moment on the empty database (needs the migration lock). */
const START_ALL_AT_ONCE = true;

const logDir = mkdtempSync(join(tmpdir(), 'community-cluster-'));
const children = new Map();
let database;
let redisDb;
let upstream;
let failures = 0;
let passes = 0;

// ---------------------------------------------------------------------------------------------
// Small helpers

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function log(message) {
  process.stdout.write(`${message}\n`);
}

async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    passes += 1;
    log(`  ok    ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    failures += 1;
    log(`  FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function assert(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

function percentile(sorted, fraction) {
  if (sorted.length === 0) {
    return 0;
  }
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)];
}

function newUuid() {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

let playerCounter = 0;
function newPlayer() {
  playerCounter += 1;
  return { uuid: newUuid(), mcid: `cl${playerCounter}_${randomBytes(3).toString('hex')}` };
}

/** A client address of this run: 127.<RUN_OCTET>.<group>.<n>. */
function clientAddress(group, n) {
  return `127.${RUN_OCTET}.${group}.${n}`;
}

// ---------------------------------------------------------------------------------------------
// HTTP through the balancer

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let balancerPort;

/**
 * One request through HAProxy. `from` is the client's source address; `replica` pins the request
 * to one replica (a rule of this test's HAProxy configuration). Resolves with status, parsed body,
 * the replica that answered (X-Served-By, set by HAProxy) and the latency.
 */
function request(method, path, { body, headers = {}, from = clientAddress(0, 1), replica, port = balancerPort } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = process.hrtime.bigint();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        localAddress: from,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(replica ? { 'x-cluster-replica': replica } : {}),
          ...headers,
        },
        timeout: 30_000,
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({
            status: response.statusCode,
            body: parsed,
            text,
            servedBy: response.headers['x-served-by'],
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, error: error.message, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    if (payload !== undefined) {
      req.write(payload);
    }
    req.end();
  });
}

function expectStatus(result, status, what) {
  assert(result.status === status, `${what}: expected ${status}, got ${result.status} ${result.error ?? result.text?.slice(0, 200) ?? ''}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Processes

function startProcess(name, command, args, env = {}) {
  const logFile = join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const entry = { name, child, logFile, exit: undefined };
  entry.exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      entry.exit = { code, signal };
      resolve(entry.exit);
    });
  });
  children.set(name, entry);
  return entry;
}

function logTail(name, lines = 15) {
  const entry = children.get(name);
  if (!entry || !existsSync(entry.logFile)) {
    return '';
  }
  return readFileSync(entry.logFile, 'utf8').trim().split('\n').slice(-lines).join('\n');
}

const replicaPorts = {};
let replicaEnv;

function startReplica(name) {
  return startProcess(name, process.execPath, [join(root, 'dist', 'main.js')], { ...replicaEnv, PORT: String(replicaPorts[name]) });
}

async function waitReady(name, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const entry = children.get(name);
  while (Date.now() < deadline) {
    if (entry.exit) {
      throw new Error(`${name} exited (${JSON.stringify(entry.exit)}) before it was ready:\n${logTail(name)}`);
    }
    const result = await request('GET', '/health/ready', { port: replicaPorts[name], from: '127.0.0.1' });
    if (result.status === 200) {
      return;
    }
    await sleep(200);
  }
  throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${logTail(name)}`);
}

/** HAProxy's view of each server (its stats page as CSV): { app1: 'UP', app2: 'DOWN', … }. */
let statsPort;
async function serverStates() {
  const result = await request('GET', '/stats;csv', { port: statsPort, from: '127.0.0.1' });
  const states = {};
  for (const line of (result.text ?? '').split('\n')) {
    const fields = line.split(',');
    if (fields[0] === 'replicas' && /^app\d$/.test(fields[1])) {
      states[fields[1]] = fields[17];
    }
  }
  return states;
}

async function waitState(name, wanted, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let states = {};
  while (Date.now() < deadline) {
    states = await serverStates();
    if (states[name] === wanted) {
      return Date.now();
    }
    await sleep(100);
  }
  throw new Error(`HAProxy did not mark ${name} ${wanted} within ${timeoutMs} ms (states: ${JSON.stringify(states)})`);
}

function haproxyConfig() {
  const servers = [...REPLICAS, LATE_REPLICA];
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  timeout http-keep-alive 10s',
    '  option redispatch',
    '  retries 3',
    // A replica that closes its listener or an idle connection while it drains: try another one.
    '  retry-on conn-failure empty-response',
    'frontend api',
    `  bind 127.0.0.1:${balancerPort}`,
    // The client's address, replacing whatever the client claimed (the replicas trust only us).
    '  http-request set-header X-Forwarded-For %[src]',
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    `  source ${BALANCER_SOURCE}`,
    '  option httpchk GET /health/ready',
    '  http-check expect status 200',
    // Checks come from the balancer's own address and count against its per-address limit:
    // 3 replicas × 2 a second = 360 a minute, under the 600.
    '  default-server inter 500ms fall 2 rise 2',
    // Test only: pin a request to one replica, and say which replica answered.
    ...servers.map((name) => `  use-server ${name} if { req.hdr(x-cluster-replica) -m str ${name} }`),
    '  http-response set-header X-Served-By %[srv_name]',
    ...servers.map((name) => `  server ${name} 127.0.0.1:${replicaPorts[name]} check`),
    'listen stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

function haproxyBinary() {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy']) {
    if (existsSync(candidate)) {
      return candidate;
    }
  }
  log('HAProxy is missing: installing it from the distribution (apt-get install -y haproxy)');
  const install = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy'], { stdio: 'inherit' });
  if (install.status !== 0 || !existsSync('/usr/sbin/haproxy')) {
    throw new Error('HAProxy is not installed and apt-get install -y haproxy failed (run as root, or install it first)');
  }
  return '/usr/sbin/haproxy';
}

// ---------------------------------------------------------------------------------------------
// Fake ban-list upstream: every player is unknown (404) after a short delay, so a run takes a while.

function startUpstream() {
  const asked = new Map();
  const server = http.createServer((req, res) => {
    const match = /^\/player\/([^/?]+)$/.exec(req.url ?? '');
    const uuid = match ? decodeURIComponent(match[1]).toLowerCase() : '?';
    asked.set(uuid, (asked.get(uuid) ?? 0) + 1);
    setTimeout(() => res.writeHead(404, { 'content-type': 'application/json', connection: 'close' }).end('{"message":"Not found"}'), 600);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, asked, url: `http://127.0.0.1:${server.address().port}` }));
  });
}

// ---------------------------------------------------------------------------------------------
// Database and Redis of the run

async function createDatabase() {
  const name = `community_cluster_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = await createConnection(MYSQL_URL);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const connection = await createConnection(`${MYSQL_URL}/${name}`);
  return { name, url: `${MYSQL_URL}/${name}`, connection };
}

/** A Redis database number nobody else uses now (empty), 1–15; the run's keys are deleted at the end anyway. */
async function pickRedisDb() {
  for (const db of [...Array(15).keys()].map((index) => index + 1).sort(() => Math.random() - 0.5)) {
    const client = new Redis(`${REDIS_BASE}/${db}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    if ((await client.dbsize()) === 0) {
      return { db, client };
    }
    await client.quit();
  }
  throw new Error('no empty Redis database (1–15) is free for this run');
}

let cleaning;
/** Stops everything the run started; safe to call more than once (a signal during the normal end). */
function cleanUp() {
  cleaning ??= stopEverything();
  return cleaning;
}

async function stopEverything() {
  for (const entry of children.values()) {
    if (!entry.exit) {
      entry.child.kill('SIGKILL');
    }
  }
  await Promise.all([...children.values()].map((entry) => Promise.race([entry.exited, sleep(3000)])));
  agent.destroy();
  if (upstream) {
    upstream.server.closeAllConnections();
    upstream.server.close();
  }
  if (redisDb) {
    try {
      // The run's clients, the balancer's health checks, and this script's direct readiness polls.
      const patterns = [`*127.${RUN_OCTET}.*`, `*${BALANCER_SOURCE}*`, '*:127.0.0.1'];
      const keys = (await Promise.all(patterns.map((pattern) => redisDb.client.keys(pattern)))).flat();
      if (keys.length > 0) {
        await redisDb.client.del(...keys);
      }
      await redisDb.client.quit();
    } catch (error) {
      log(`could not clean Redis db ${redisDb.db}: ${error.message}`);
    }
  }
  if (database) {
    try {
      await database.connection.end();
      const admin = await createConnection(MYSQL_URL);
      await admin.query(`DROP DATABASE IF EXISTS \`${database.name}\``);
      await admin.end();
    } catch (error) {
      log(`could not drop ${database.name}: ${error.message}`);
    }
  }
  if (failures === 0 && !process.env.CLUSTER_KEEP_LOGS) {
    rmSync(logDir, { recursive: true, force: true });
  } else {
    log(`logs: ${logDir}`);
  }
}

// Last resort when the script dies without reaching cleanUp(): no process of the run may linger.
process.on('exit', () => {
  for (const entry of children.values()) {
    if (!entry.exit) {
      entry.child.kill('SIGKILL');
    }
  }
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping the cluster`);
    failures += 1;
    cleanUp().finally(() => process.exit(1));
  });
}

// ---------------------------------------------------------------------------------------------
// The checks

const BLOCKS_10X10 = [
  { id: 1, x: 0, z: 0 },
  { id: 2, x: 0, z: 9 },
  { id: 3, x: 9, z: 9 },
  { id: 4, x: 9, z: 0 },
];

function cli(args) {
  const result = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'main.js'), ...args, '--json'], {
    cwd: root,
    env: { ...process.env, ...replicaEnv, LOG_LEVEL: 'error' },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`cli ${args.join(' ')} failed: ${result.stdout} ${result.stderr}`);
  }
  return JSON.parse(result.stdout);
}

async function login(gameKey, player, from) {
  const body = { logins: [{ uuid: player.uuid, mcid: player.mcid, loggedInAt: new Date().toISOString(), permission: 'default' }] };
  return request('POST', '/game-server/logins', { body, headers: { 'x-api-key': gameKey }, from });
}

async function migrationRows() {
  const [rows] = await database.connection.query('SELECT name FROM migrations ORDER BY id');
  return rows.map((row) => row.name);
}

function migrationFiles() {
  return readdirSync(join(root, 'dist', 'database', 'migrations')).filter((file) => file.endsWith('.js')).length;
}

async function main() {
  const begun = Date.now();
  const haproxy = haproxyBinary();
  if (!process.env.CLUSTER_SKIP_BUILD) {
    // Rebuilds only when a source is newer than dist/ (CI's build stage already made it).
    const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.js')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) {
      throw new Error('build failed');
    }
  }

  database = await createDatabase();
  redisDb = await pickRedisDb();
  upstream = await startUpstream();
  for (const name of [...REPLICAS, LATE_REPLICA]) {
    replicaPorts[name] = await freePort();
  }
  balancerPort = await freePort();
  statsPort = await freePort();
  replicaEnv = {
    ENV_FILE: '', // no developer's .env reaches the replicas (docs/env-file.md)
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    REDIS_URL: `${REDIS_BASE}/${redisDb.db}`,
    RATE_LIMIT_ENABLED: 'true',
    TRUST_PROXY: `${BALANCER_SOURCE}/32`,
    BANLIST_SOURCE_URL: upstream.url,
    BANLIST_SYNC_CRON: '0 0 0 1 1 *',
    BANLIST_TIMEOUT_MS: '5000',
    RECAPTCHA_SECRET: '',
  };
  log(`cluster: database ${database.name}, redis db ${redisDb.db}, clients 127.${RUN_OCTET}.x.y, logs ${logDir}`);

  writeFileSync(join(logDir, 'haproxy.cfg'), haproxyConfig());
  startProcess('haproxy', haproxy, ['-db', '-f', join(logDir, 'haproxy.cfg')]);

  await check(`three replicas started ${START_ALL_AT_ONCE ? 'at once' : 'one after the other'} on an empty database all come up`, async () => {
    if (START_ALL_AT_ONCE) {
      REPLICAS.forEach(startReplica);
      await Promise.all(REPLICAS.map((name) => waitReady(name, 60_000)));
    } else {
      startReplica(REPLICAS[0]);
      await waitReady(REPLICAS[0], 60_000);
      REPLICAS.slice(1).forEach(startReplica);
      await Promise.all(REPLICAS.slice(1).map((name) => waitReady(name, 60_000)));
    }
    await Promise.all(REPLICAS.map((name) => waitState(name, 'UP', 15_000)));
    const names = await migrationRows();
    assert(names.length === migrationFiles(), `${names.length} migration rows for ${migrationFiles()} migrations`);
    assert(new Set(names).size === names.length, `a migration ran twice: ${names.join(', ')}`);
  });
  if (failures > 0) {
    return;
  }
  log(`  (cluster up after ${((Date.now() - begun) / 1000).toFixed(1)} s)`);

  const operatorKey = cli(['apikey:create', '--name', 'cluster-ops', '--scope', 'operator']).key;
  const gameKey = cli(['apikey:create', '--name', 'cluster-game', '--scope', 'game-server']).key;
  const everyReplica = (path, options = {}) => Promise.all(REPLICAS.map((replica) => request('GET', path, { ...options, replica })));

  await check('the balancer spreads requests over every replica', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => request('GET', '/health')));
    const seen = new Set(results.map((result) => result.servedBy));
    assert(REPLICAS.every((name) => seen.has(name)), `answered by ${[...seen].join(', ')}`);
  });

  let user;
  await check('a player written on one replica is read by the next request on every replica', async () => {
    user = newPlayer();
    for (const [index, replica] of REPLICAS.entries()) {
      const mcid = `${user.mcid.slice(0, 12)}_${index}`;
      const body = { logins: [{ uuid: user.uuid, mcid, loggedInAt: new Date(Date.now() + index * 1000).toISOString(), permission: 'default' }] };
      expectStatus(await request('POST', '/game-server/logins', { body, headers: { 'x-api-key': gameKey }, replica }), 200, `login on ${replica}`);
      for (const read of await everyReplica(`/users/${user.uuid}`)) {
        expectStatus(read, 200, `GET /users/{uuid} on ${read.servedBy}`);
        assert(read.body.data.mcid === mcid, `${read.servedBy} shows ${read.body.data.mcid}, not ${mcid} written on ${replica}`);
      }
      user.mcid = mcid;
    }
  });

  let usertoken;
  let cityId;
  await check('a city created, renamed and deleted is seen at once by every replica (list and single city)', async () => {
    const userkey = expectStatus(
      await request('POST', '/game-server/userkeys', { body: { uuid: user.uuid, mcid: user.mcid }, headers: { 'x-api-key': gameKey } }),
      201,
      'user key',
    ).body.userkey;
    usertoken = expectStatus(
      await request('POST', '/club/register', { body: { userkey, password: 'cluster-password-1', recaptcha: 'dev' }, replica: 'app1' }),
      201,
      'register',
    ).body.usertoken;
    const created = await request('POST', '/cities/create', {
      replica: 'app2',
      headers: { 'x-api-key': operatorKey },
      body: { usertoken, recaptcha: 'dev', force: true, cityName: `Cluster${RUN_OCTET}`, cityNameKana: 'くらすた', corners: BLOCKS_10X10, count: 100 },
    });
    cityId = expectStatus(created, 201, 'forced create').body.cityId;
    const listed = (result) => (result.body?.data ?? []).some((city) => city.id === cityId);
    for (const read of await everyReplica('/cities')) {
      assert(read.status === 200 && listed(read), `GET /cities on ${read.servedBy} lacks the new city`);
    }
    for (const read of await everyReplica(`/cities/${cityId}`)) {
      expectStatus(read, 200, `GET /cities/{id} on ${read.servedBy}`);
    }
    // The list is cached per replica: an edit on app3 must reach app1's and app2's cache at once.
    const edited = await request('PATCH', `/cities/edit/${cityId}`, { replica: 'app3', headers: { authorization: `Bearer ${usertoken}` }, body: { recaptcha: 'dev', summary: 'edited' } });
    assert([200].includes(edited.status), `edit: ${edited.status} ${edited.text}`);
    expectStatus(await request('POST', `/cities/approval/update/${cityId}`, { replica: 'app1', headers: { 'x-api-key': operatorKey } }), 200, 'approve the edit');
    for (const read of await everyReplica('/cities')) {
      const city = (read.body?.data ?? []).find((entry) => entry.id === cityId);
      assert(city?.summary === 'edited', `GET /cities on ${read.servedBy} shows summary ${city?.summary}`);
    }
    for (const read of await everyReplica(`/cities/${cityId}`)) {
      assert(read.body?.data?.summary === 'edited', `GET /cities/{id} on ${read.servedBy} shows summary ${read.body?.data?.summary}`);
    }
    expectStatus(await request('DELETE', `/cities/${cityId}`, { replica: 'app2', headers: { 'x-api-key': operatorKey } }), 200, 'delete');
    for (const read of await everyReplica('/cities')) {
      assert(read.status === 200 && !listed(read), `GET /cities on ${read.servedBy} still lists the deleted city`);
    }
    for (const read of await everyReplica(`/cities/${cityId}`)) {
      expectStatus(read, 404, `GET /cities/{id} after delete on ${read.servedBy}`);
    }
  });

  await check('@me works on every replica, and after logout on one replica the token fails on every replica', async () => {
    assert(usertoken, 'no account (previous check failed)');
    const auth = { authorization: `Bearer ${usertoken}` };
    for (const read of await everyReplica('/club/@me', { headers: auth })) {
      expectStatus(read, 200, `@me on ${read.servedBy}`);
    }
    expectStatus(await request('POST', '/club/logout', { replica: 'app3', body: { usertoken } }), 200, 'logout');
    for (const read of await everyReplica('/club/@me', { headers: auth })) {
      expectStatus(read, 401, `@me after logout on ${read.servedBy}`);
    }
  });

  await check('the per-address limit (600 a minute) is shared by the replicas, and a forged X-Forwarded-For does not escape it', async () => {
    const from = clientAddress(1, 1);
    const results = [];
    for (let batch = 0; batch < 31; batch += 1) {
      // Every other request claims another address: the balancer replaces the header.
      const forged = (index) => (index % 2 === 0 ? {} : { 'x-forwarded-for': `203.0.113.${batch}` });
      results.push(...(await Promise.all(Array.from({ length: 20 }, (_, index) => request('GET', '/health', { from, headers: forged(index) })))));
    }
    const passed = results.filter((result) => result.status === 200).length;
    const refused = results.filter((result) => result.status === 429).length;
    const replicas = new Set(results.map((result) => result.servedBy));
    assert(replicas.size === REPLICAS.length, `only ${[...replicas].join(', ')} answered`);
    assert(passed === 600 && refused === 20, `620 requests from one address: ${passed} passed, ${refused} refused (want 600 and 20)`);
    const other = await request('GET', '/health', { from: clientAddress(1, 2) });
    expectStatus(other, 200, 'another address');
  });

  await check('the sign-in limit (10 failures per account and address) is shared by the replicas', async () => {
    const from = clientAddress(2, 1);
    const attempt = () => request('POST', '/club/token', { from, body: { username: user.mcid, password: 'not-the-password', recaptcha: 'dev' } });
    const served = new Set();
    for (let index = 0; index < 10; index += 1) {
      const result = expectStatus(await attempt(), 401, `failed sign-in ${index + 1}`);
      served.add(result.servedBy);
    }
    assert(served.size === REPLICAS.length, `failures landed on ${[...served].join(', ')} only`);
    expectStatus(await attempt(), 429, 'the 11th attempt');
    const right = await request('POST', '/club/token', { from, body: { username: user.mcid, password: 'cluster-password-1', recaptcha: 'dev' } });
    expectStatus(right, 429, 'even the right password from that address');
    const elsewhere = await request('POST', '/club/token', { from: clientAddress(2, 2), body: { username: user.mcid, password: 'cluster-password-1', recaptcha: 'dev' } });
    expectStatus(elsewhere, 200, 'the right password from another address');
  });

  await check('one ban-list run at a time: triggered on three replicas at once, one runs, two answer 409', async () => {
    for (let index = 0; index < 7; index += 1) {
      expectStatus(await login(gameKey, newPlayer(), clientAddress(3, 1)), 200, 'login');
    }
    upstream.asked.clear();
    const [[{ known }]] = await database.connection.query('SELECT COUNT(*) AS known FROM players');
    const results = await Promise.all(REPLICAS.map((replica) => request('POST', '/users/banlist/sync', { replica, headers: { 'x-api-key': operatorKey } })));
    const statuses = results.map((result) => result.status).sort();
    assert(JSON.stringify(statuses) === '[200,409,409]', `statuses ${statuses.join(', ')}`);
    const summary = results.find((result) => result.status === 200).body;
    assert(summary.players === Number(known) && summary.updated === Number(known), `summary ${JSON.stringify(summary)} for ${known} players`);
    const askedTwice = [...upstream.asked.values()].filter((count) => count > 1).length;
    assert(upstream.asked.size === Number(known) && askedTwice === 0, `upstream asked about ${upstream.asked.size} players (${askedTwice} more than once)`);
  });

  const figures = {};
  await check('SIGTERM to one replica under load: no acknowledged write lost, no 5xx, the balancer stops sending to it', async () => {
    const victim = 'app2';
    const acknowledged = [];
    const samples = [];
    const readable = [user.uuid];
    let stop = false;
    let killedAt;
    let address = 0;
    const worker = async (id) => {
      while (!stop) {
        address = (address % 250) + 1;
        const from = clientAddress(10 + (id % 4), address);
        const started = Date.now();
        let result;
        if (Math.random() < 0.5) {
          const player = newPlayer();
          result = await login(gameKey, player, from);
          if (result.status === 200 && result.body?.accepted === 1) {
            acknowledged.push(player.uuid);
            readable.push(player.uuid);
          }
        } else {
          result = await request('GET', `/users/${readable[randomInt(readable.length)]}`, { from });
        }
        samples.push({ started, status: result.status, ms: result.ms, servedBy: result.servedBy, error: result.error });
      }
    };
    const loadStarted = Date.now();
    const workers = Array.from({ length: 16 }, (_, id) => worker(id));
    await sleep(2500);
    const entry = children.get(victim);
    killedAt = Date.now();
    entry.child.kill('SIGTERM');
    const downAt = await waitState(victim, 'DOWN', 10_000);
    const exit = await Promise.race([entry.exited, sleep(30_000).then(() => undefined)]);
    await sleep(2500);
    stop = true;
    await Promise.all(workers);
    const loadSeconds = (Date.now() - loadStarted) / 1000;

    const [rows] = acknowledged.length
      ? await database.connection.query('SELECT uuid FROM players WHERE uuid IN (?)', [acknowledged])
      : [[]];
    const stored = new Set(rows.map((row) => row.uuid));
    const lost = acknowledged.filter((uuid) => !stored.has(uuid));
    const serverErrors = samples.filter((sample) => sample.status >= 500 || sample.status === 0);
    const latencies = samples.map((sample) => sample.ms).sort((a, b) => a - b);
    const afterDown = samples.filter((sample) => sample.started > downAt + 100 && sample.servedBy === victim);
    Object.assign(figures, {
      requests: samples.length,
      writesAcknowledged: acknowledged.length,
      fivexx: serverErrors.length,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? 0,
      downAfterMs: downAt - killedAt,
      seconds: loadSeconds,
    });
    log(
      `  figures: ${figures.requests} requests (${figures.writesAcknowledged} acknowledged writes) in ${figures.seconds.toFixed(1)} s, ` +
        `${figures.fivexx} 5xx or failed, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms; ` +
        `${victim} marked DOWN ${figures.downAfterMs} ms after SIGTERM`,
    );
    assert(exit && exit.code === 0, `${victim} did not exit 0 after SIGTERM: ${JSON.stringify(exit)}`);
    assert(lost.length === 0, `${lost.length} of ${acknowledged.length} acknowledged writes are missing`);
    assert(serverErrors.length === 0, `${serverErrors.length} requests failed: ${JSON.stringify(serverErrors.slice(0, 3))}`);
    assert(afterDown.length === 0, `${afterDown.length} requests were served by ${victim} after it was marked down`);
    assert(samples.length >= 50 && acknowledged.length >= 15, `too little load to mean anything (${samples.length} requests)`);
    // Generous: a busy 2-core machine runs HAProxy, MariaDB, Redis, three replicas and this client.
    assert(figures.p99 < 5000, `p99 ${figures.p99.toFixed(0)} ms is above 5 s`);
  });

  await check('a replica started later joins the rotation without running the migrations again', async () => {
    const before = await migrationRows();
    startReplica(LATE_REPLICA);
    await waitReady(LATE_REPLICA, 60_000);
    await waitState(LATE_REPLICA, 'UP', 15_000);
    const after = await migrationRows();
    assert(JSON.stringify(after) === JSON.stringify(before), `migrations table changed: ${before.length} → ${after.length} rows`);
    const results = await Promise.all(Array.from({ length: 12 }, () => request('GET', `/users/${user.uuid}`)));
    assert(results.every((result) => result.status === 200), `statuses ${results.map((result) => result.status).join(',')}`);
    assert(results.some((result) => result.servedBy === LATE_REPLICA), `${LATE_REPLICA} served none of 12 requests`);
  });

  log(`cluster run took ${((Date.now() - begun) / 1000).toFixed(1)} s`);
}

main()
  .catch((error) => {
    failures += 1;
    log(`FAIL  the run stopped: ${error instanceof Error ? error.stack : String(error)}`);
  })
  .then(async () => {
    if (failures > 0) {
      for (const name of children.keys()) {
        log(`--- last lines of ${name}:\n${logTail(name)}`);
      }
    }
    await cleanUp();
    log(`${passes} passed, ${failures} failed`);
    process.exit(failures > 0 ? 1 : 0);
  });
