#!/usr/bin/env node
// npm run bench — seeds a data set into a fresh database, starts the service as its own process
// (NODE_ENV=production, LOG_LEVEL=warn, rate limits off), and measures it against two yardsticks
// in the same run: a raw node:http server and a bare NestJS 12 + Fastify route, both answering a
// fixed ~570-byte JSON body, each in its own process. The load generator (autocannon) runs in a
// process of its own too (bench/load.js), so every number measures a server, not the generator.
//
// The hot reads and both baselines are measured interleaved: BENCH_ROUNDS rounds, each measuring
// every target for BENCH_DURATION seconds in turn; a target's figure is its median round. Then the
// other endpoints (the full list, 304, ban by id, argon2 sign-in, reads under sign-ins) once each.
// Writes bench/results/latest.{json,md}.
//
// Environment: DATABASE_URL (default: a fresh SQLite file; a mysql:// URL names the server on which
// a fresh database is created and dropped); BENCH_DURATION seconds per measurement (5);
// BENCH_ROUNDS (3); BENCH_CONNECTIONS (50); BENCH_FULL=1 for the large data set (100,000 players,
// 2,000 cities) instead of the default 2,000 players and 200 cities; BENCH_ONLY=<regex> to measure
// only matching hot reads (with the baselines) and skip the rest, e.g. for profiling;
// BENCH_SAVE_DB=<file> keeps a copy of the seeded SQLite database; BENCH_NODE_FLAGS for the service process (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
const { fork, spawnSync } = require('node:child_process');
const { createServer } = require('node:http');
const { copyFileSync, mkdirSync, writeFileSync, existsSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const { seed, seedCities, uuidFor, mcidFor, tokenFor } = require('./seed');
const { startService, stopService } = require('./service-process');

const root = join(__dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const FULL = process.env.BENCH_FULL === '1';
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const SIZE = FULL
  ? { players: 100_000, cities: 2_000, bans: 50_000, bannedPlayers: 10_000, clubAccounts: 5_000 }
  : { players: 2_000, cities: 200, bans: 5_000, bannedPlayers: 1_000, clubAccounts: 500 };
const PASSWORD = 'bench-password';
const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const pick = (count) => Math.floor(Math.random() * count);
const many = (make, count = 500) => Array.from({ length: count }, make);

async function prepareDatabase() {
  const url = process.env.DATABASE_URL;
  if (url && /^(mysql|mariadb):/.test(url)) {
    const mysql = require('mysql2/promise');
    const server = new URL(url.replace(/^mariadb:/, 'mysql:'));
    const name = `community_bench_${Date.now()}`;
    server.pathname = '';
    const admin = await mysql.createConnection(server.toString());
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    server.pathname = `/${name}`;
    const databaseUrl = server.toString();
    return {
      kind: 'mysql',
      url: databaseUrl,
      open: async () => mysql.createConnection(databaseUrl),
      close: async (db) => db.end(),
      drop: async () => {
        const again = await mysql.createConnection(url.replace(/^mariadb:/, 'mysql:').replace(/\/[^/]*$/, ''));
        await again.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await again.end();
      },
    };
  }
  const dir = join(tmpdir(), `community-bench-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'bench.sqlite');
  return {
    kind: 'sqlite',
    url: `sqlite:${file}`,
    open: async () => {
      const Database = require('better-sqlite3');
      const db = new Database(file);
      db.pragma('journal_mode = WAL');
      return db;
    },
    close: async (db) => db.close(),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function cli(args, env) {
  const result = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'main.js'), ...args, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`cli ${args.join(' ')} failed: ${result.stdout} ${result.stderr}`);
  }
  return JSON.parse(result.stdout);
}

/** A stand-in CAPTCHA provider on loopback that accepts every token (production needs a secret). */
function startCaptcha() {
  return new Promise((resolve) => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"success":true}');
      });
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/siteverify` }));
  });
}



/** A yardstick server (bench/baseline-server.js or bench/nest-baseline-server.js) in its own process. */
function startYardstick(file, env = {}) {
  return new Promise((resolve) => {
    const child = fork(join(__dirname, file), [], { stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production', ...env } });
    child.on('message', ({ port }) => resolve({ child, base: `http://127.0.0.1:${port}` }));
  });
}

function rssOf(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The load generator process; `measure` sends it one job and resolves with its summary. */
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
  const measure = (base, { paths, headers, connections = CONNECTIONS, duration = DURATION, overallRate }, pid) =>
    new Promise((resolve, reject) => {
      const id = (next += 1);
      const cpuBefore = pid ? cpuSecondsOf(pid) : 0;
      const startedAt = Date.now();
      waiting.set(id, {
        resolve: (result) =>
          resolve({
            ...result,
            rps: Math.round(result.rps),
            // Share of one core the server used: near 100% means the server is the limit.
            serverCpu: pid ? Math.round(((cpuSecondsOf(pid) - cpuBefore) / ((Date.now() - startedAt) / 1000)) * 100) : undefined,
            // CPU the server spent per request (µs): steadier than req/s on a shared machine.
            cpuMicros: pid && result.total > 0 ? Number((((cpuSecondsOf(pid) - cpuBefore) * 1e6) / result.total).toFixed(1)) : undefined,
          }),
        reject,
      });
      child.send({ id, url: base, paths, headers, connections, duration, overallRate });
    });
  return { child, measure };
}


const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ratio = (value, to) => Number((value / to).toFixed(2));

async function main() {
  if (!existsSync(join(root, 'dist', 'main.js')) || process.env.BENCH_BUILD !== '0') {
    log('building');
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (build.status !== 0) {
      throw new Error('build failed');
    }
  }
  const database = await prepareDatabase();
  const captcha = await startCaptcha();
  const env = {
    ENV_FILE: '', // no developer's .env reaches the measured server (docs/env-file.md)
    DATABASE_URL: database.url,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    RECAPTCHA_SECRET: 'bench-secret',
    RECAPTCHA_VERIFY_URL: captcha.url,
    PORT: String(40000 + pick(10000)),
  };
  log(`database: ${database.kind}; data set: ${JSON.stringify(SIZE)}`);
  cli(['migration:run'], env);
  const operatorKey = cli(['apikey:create', '--name', 'bench-operator', '--scope', 'operator'], env).key;

  const argon2 = require('argon2');
  const passwordHash = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const db = await database.open();
  const seedStarted = Date.now();
  await seed({ kind: database.kind, db, players: SIZE.players, clubAccounts: SIZE.clubAccounts, bannedPlayers: SIZE.bannedPlayers, bans: SIZE.bans, passwordHash, log });
  await database.close(db);

  // Cities go in through the API (it is the only writer of their geometry and name keys); the
  // service that did the ingest is then replaced by a fresh one, so the measurements (and the
  // memory figures) are of a service serving traffic, not of one that just took the creates.
  const seeder = await startService(env, { nodeFlags: (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean) });
  const cities = await seedCities(seeder.base, operatorKey, SIZE.cities);
  await stopService(seeder);
  if (process.env.BENCH_SAVE_DB && database.kind === 'sqlite') {
    // For profiling loops: the seeded database, reusable without seeding again.
    copyFileSync(database.url.slice('sqlite:'.length), process.env.BENCH_SAVE_DB);
    writeFileSync(`${process.env.BENCH_SAVE_DB}.json`, JSON.stringify({ cities, operatorKey }));
  }
  log(`seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);
  const service = await startService(env, { nodeFlags: (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean) });
  const raw = await startYardstick('baseline-server.js');
  const nest = await startYardstick('nest-baseline-server.js');
  const load = startLoad();
  const measure = (base, target, pid) => load.measure(base, target, pid);

  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(service.child.pid))), 250);

  // Signing in supersedes an account's token, so sign-ins use the upper half of the accounts and
  // GET /club/@me the lower half (whose seeded tokens must stay valid).
  const meAccounts = Math.floor(SIZE.clubAccounts / 2);
  const signInPaths = many(() => `/club/token?username=${mcidFor(meAccounts + pick(SIZE.clubAccounts - meAccounts))}&password=${PASSWORD}&recaptcha=bench`);
  const randomCity = () => cities[pick(cities.length)];
  const hot = [
    { name: 'GET /cities/{id}', paths: many(() => `/cities/${randomCity().id}`) },
    { name: 'GET /cities/{uuid}', paths: many(() => `/cities/${randomCity().owner}`) },
    { name: 'GET /users/{uuid}', paths: many(() => `/users/${uuidFor(pick(SIZE.players))}`) },
    { name: 'GET /users/{mcid}', paths: many(() => `/users/${mcidFor(pick(SIZE.players))}`) },
    { name: 'GET /users/banlist/{uuid}', paths: many(() => `/users/banlist/${uuidFor(pick(SIZE.bannedPlayers))}`) },
    { name: 'GET /club/@me', paths: many(() => `/club/@me?usertoken=${tokenFor(pick(meAccounts))}`) },
  ].filter((target) => !ONLY || ONLY.test(target.name));
  const others = ONLY
    ? []
    : [
        { name: 'GET /cities (all)', kind: 'list', paths: ['/cities'] },
        { name: 'GET /cities (all, gzip)', kind: 'list', paths: ['/cities'], headers: { 'accept-encoding': 'gzip' } },
        { name: 'GET /users/banlist/ban/{id}', paths: many(() => `/users/banlist/ban/${1 + pick(SIZE.bans)}`) },
        { name: 'GET /club/token (argon2)', kind: 'signin', paths: signInPaths },
      ];

  // A first look at every endpoint, so that failures show before the long run.
  for (const target of [...hot, ...others]) {
    const response = await fetch(`${service.base}${target.paths[0]}`, { headers: target.headers });
    if (!response.ok) {
      throw new Error(`${target.name} answered ${response.status}: ${await response.text()}`);
    }
  }
  if (!ONLY) {
    const etag = (await fetch(`${service.base}/cities`)).headers.get('etag');
    if (etag) {
      others.splice(2, 0, { name: 'GET /cities (all, 304)', paths: ['/cities'], headers: { 'if-none-match': etag } });
    }
  }

  const yardsticks = [
    { name: 'raw node:http, fixed body', server: raw, paths: ['/'] },
    { name: 'bare NestJS + Fastify route, fixed body', server: nest, paths: ['/'] },
  ];
  log('warm-up');
  for (const target of yardsticks) {
    await measure(target.server.base, { paths: target.paths, duration: 2, connections: 10 });
  }
  for (const target of [...hot, ...others.filter((other) => other.kind !== 'signin')]) {
    await measure(service.base, { ...target, duration: 1, connections: 10 });
  }

  // Interleaved rounds: every target once per round, so drift on a shared machine hits all alike.
  const interleaved = [...yardsticks.map((target) => ({ ...target, base: target.server.base, pid: target.server.child.pid })), ...hot.map((target) => ({ ...target, base: service.base, pid: service.child.pid }))];
  const rounds = new Map(interleaved.map((target) => [target.name, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const target of interleaved) {
      const result = await measure(target.base, target, target.pid);
      rounds.get(target.name).push(result);
      log(`round ${round}/${ROUNDS} ${target.name}: ${result.rps} req/s, server CPU ${result.serverCpu}%`);
    }
  }
  const medianOf = (name) => {
    const results = rounds.get(name);
    const middle = median(results.map((result) => result.rps));
    return { ...results.find((result) => result.rps === middle), rounds: results.map((result) => result.rps) };
  };
  const rawResult = medianOf(yardsticks[0].name);
  const nestResult = medianOf(yardsticks[1].name);
  const rows = interleaved.map((target) => {
    const result = medianOf(target.name);
    return { name: target.name, kind: target.server ? 'baseline' : 'hot', ...result, ratioToRaw: ratio(result.rps, rawResult.rps), ratioToNest: ratio(result.rps, nestResult.rps) };
  });

  let loaded;
  if (!ONLY) {
    // The full list is a large body: node:http sending the very same bytes shows what the client
    // and the loopback can carry at all, so the list rows are also compared with that.
    const listBaselines = {};
    const listJson = Buffer.from(await (await fetch(`${service.base}/cities`)).arrayBuffer());
    for (const encoding of ['identity', 'gzip']) {
      // The service's gzip is level 9 of the same JSON, so this is byte for byte what it sends.
      const bytes = encoding === 'gzip' ? gzipSync(listJson, { level: 9 }) : listJson;
      const file = join(tmpdir(), `community-bench-list-${encoding}-${process.pid}.bin`);
      writeFileSync(file, bytes);
      const server = await startYardstick('baseline-server.js', { BASELINE_BODY_FILE: file, ...(encoding === 'gzip' ? { BASELINE_ENCODING: 'gzip' } : {}) });
      const name = `raw node:http, list body (${encoding}, ${Math.round(bytes.length / 1024)} KiB)`;
      log(name);
      const result = await measure(server.base, { paths: ['/'] }, server.child.pid);
      listBaselines[encoding] = result.rps;
      rows.push({ name, kind: 'baseline', ...result, ratioToRaw: ratio(result.rps, rawResult.rps), ratioToNest: ratio(result.rps, nestResult.rps) });
      server.child.kill('SIGTERM');
      rmSync(file, { force: true });
    }
    for (const target of others) {
      log(target.name);
      const result = await measure(service.base, target, service.child.pid);
      const sameBody = target.kind === 'list' ? listBaselines[target.headers?.['accept-encoding'] ? 'gzip' : 'identity'] : undefined;
      rows.push({
        name: target.name,
        kind: target.kind ?? 'other',
        ...result,
        ratioToRaw: ratio(result.rps, rawResult.rps),
        ratioToNest: ratio(result.rps, nestResult.rps),
        ...(sameBody ? { ratioToSameBody: ratio(result.rps, sameBody) } : {}),
      });
    }
    log('GET /cities/{id} while sign-ins run at 20/s');
    const [underLoad] = await Promise.all([
      measure(service.base, hot[0], service.child.pid),
      // A second generator for the sign-ins, so the two loads do not share one event loop.
      (async () => {
        const second = startLoad();
        try {
          return await second.measure(service.base, { paths: signInPaths, overallRate: 20, connections: 4 });
        } finally {
          second.child.kill();
        }
      })(),
    ]);
    loaded = { name: 'GET /cities/{id} with 20 sign-ins/s', kind: 'loaded', ...underLoad, ratioToRaw: ratio(underLoad.rps, rawResult.rps), ratioToNest: ratio(underLoad.rps, nestResult.rps) };
    rows.push(loaded);
  }

  clearInterval(sampler);
  service.child.removeAllListeners('exit');
  service.child.kill('SIGINT');
  raw.child.kill('SIGTERM');
  nest.child.kill('SIGTERM');
  load.child.kill();
  captcha.server.close();
  await database.drop();

  const idle = rows.find((row) => row.name === 'GET /cities/{id}');
  const targets = {
    hotReadsAtLeast06OfNestRoute: rows.filter((row) => row.kind === 'hot').every((row) => row.ratioToNest >= 0.6),
    ...(ONLY
      ? {}
      : {
          citiesListRpsWith304: rows.filter((row) => row.name === 'GET /cities (all, 304)').every((row) => row.rps >= 1000),
          citiesListAtTransportLimit: rows.filter((row) => row.ratioToSameBody !== undefined).every((row) => row.ratioToSameBody >= 0.9),
          p99UnderSignIns: loaded.p99 < 3 * Math.max(idle.p99, 1),
          peakRssUnder250MB: peakRss < 250 * 1024 * 1024,
        }),
  };
  const report = {
    date: new Date().toISOString(),
    database: database.kind,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    rounds: ROUNDS,
    nodeEnv: 'production',
    dataset: { ...SIZE, loginRecords: SIZE.players * 10 },
    baselines: { raw: rawResult.rps, nestRoute: nestResult.rps },
    rows,
    peakRssMB: Math.round(peakRss / 1024 / 1024),
    targets,
  };
  const table = [
    '| endpoint | req/s | rounds | p50 ms | p99 ms | errors | to raw node:http | to bare Nest route | to same body | server CPU % | server CPU µs/req |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.rps} | ${row.rounds ? row.rounds.join(' / ') : ''} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.ratioToRaw} | ${row.ratioToNest} | ${row.ratioToSameBody ?? ''} | ${row.serverCpu ?? ''} | ${row.cpuMicros ?? ''} |`,
    ),
  ].join('\n');
  const markdown =
    `# Benchmark ${report.date}\n\n${database.kind}, NODE_ENV=production, LOG_LEVEL=warn, rate limits off, ${CONNECTIONS} connections; ` +
    `baselines and hot reads interleaved in ${ROUNDS} rounds of ${DURATION} s each (median round shown), the rest once; ` +
    `load generator, service and each baseline in separate processes; data set: ${JSON.stringify(report.dataset)}.\n\n` +
    `Baselines in this run: raw node:http ${rawResult.rps} req/s, bare NestJS + Fastify route ${nestResult.rps} req/s.\n\n${table}\n\n` +
    (loaded ? `p99 of GET /cities/{id}: idle ${idle.p99} ms, with 20 sign-ins/s ${loaded.p99} ms. ` : '') +
    `Peak RSS of the service: ${report.peakRssMB} MB.\n\n` +
    `Targets: ${Object.entries(targets).map(([name, met]) => `${name} ${met ? 'met' : 'MISSED'}`).join(', ')}.\n`;
  const out = join(__dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(out, 'latest.md'), markdown);
  process.stdout.write(`${markdown}\n`);
}

main().catch((error) => {
  process.stderr.write(`[bench] failed: ${error.stack ?? error}\n`);
  process.exit(1);
});
