#!/usr/bin/env node
// npm run test:lifetime — the service over a long run, as operators run it (docs/reliability.md, "Lifetime").
//
// Per database (SQLite, then MariaDB): one server process from dist/ (`node dist/main.js`), a
// loopback webhook receiver and a loopback ban-list upstream, and several load-generator worker
// processes (this script with --worker) driving a realistic mix over keep-alive connections: user
// keys, login batches, registrations and sign-ins, nickname changes, city requests approved and
// rejected, forced creates, edits, deletions, reads, ban-list syncs; webhook deliveries follow
// from the events the writes record. Then SIGTERM, a restart on the same database, and checks.
//
// Checks per database (one line each, then `N passed, N failed`):
//   no 5xx; no connection errors; every answer the one the mix expects; per kind of operation,
//   p99 of the last tenth <= 3 x p99 of the first tenth + 5 ms; RSS at the end <= 1.5 x RSS after
//   the first tenth; peak RSS under a ceiling; a clean exit on SIGTERM; after the restart every
//   acknowledged write is there; every event acknowledged by the receiver exactly once per
//   (webhook, event), retries with the same delivery id; the restarted service takes writes; the
//   watchdog did not fire.
//
// Environment:
//   LIFETIME_DATABASES     sqlite,mysql (a comma list)
//   LIFETIME_SQLITE_OPS    50000        operations on SQLite
//   LIFETIME_MYSQL_OPS     20000        operations on MariaDB
//   LIFETIME_MYSQL_URL     mysql://root@127.0.0.1:3306  (a throwaway database is created and dropped)
//   LIFETIME_WORKERS       3            load-generator processes
//   LIFETIME_LANES         2            concurrent keep-alive clients per worker
//   LIFETIME_WATCHDOG_SECONDS  900      per database: past it, everything is stopped and the database fails
//   LIFETIME_RSS_CEILING_MB    320      the generous ceiling for the server's peak RSS (the target is 256)
//   LIFETIME_NODE_OPTIONS               extra node options for the server
//   LIFETIME_HEAP_SNAPSHOTS=DIR         heap snapshots of the server into DIR after the first tenth and at the end
//   LIFETIME_KEEP=1                     keep the SQLite file / MariaDB database (their location is printed)
// Exit status 0 when every check passed.
const { fork, spawn, spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, existsSync } = require('node:fs');
const { createServer: createHttpServer } = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomUUID, createHash } = require('node:crypto');
const { imageMemoryEnv } = require('./image-memory-env');
const { freePort } = require('./free-port');

const root = join(__dirname, '..');
const PASSWORD = 'lifetime-password-1';
const KANA_DIGITS = 'アイウエオカキクケコ';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message) => process.stderr.write(`[lifetime] ${message}\n`);

/** Kinds whose cost grows with the data by design: not held to the p99 rule (they still count for 5xx). */
const GROWING_KINDS = new Set(['banlist-sync']);
/** Registered cities a lane keeps at most: the city list stays small however long the run. */
const LIVE_CITIES_PER_LANE = 12;
/** A kind needs this many samples in the first and the last tenth for its p99s to mean anything. */
const MIN_SAMPLES = 20;

// ---------------------------------------------------------------------------------------------
// Load-generator worker (this file with --worker): runs its lanes and reports every operation.
// ---------------------------------------------------------------------------------------------

function pick(items) {
  return items[Math.floor(Math.random() * items.length)];
}

function kana(number) {
  return [...String(number)].map((digit) => KANA_DIGITS[Number(digit)]).join('');
}

function square(x, z, size = 10) {
  const far = size - 1;
  return [
    { id: 1, x, z },
    { id: 2, x, z: z + far },
    { id: 3, x: x + far, z: z + far },
    { id: 4, x: x + far, z },
  ];
}

function newPlayer(tag) {
  const uuid = randomUUID();
  return { uuid, mcid: `lt_${tag}_${uuid.slice(0, 6)}`.slice(0, 16) };
}

/** The weights of the mix; a step whose precondition fails (no pending request, say) becomes a read. */
const MIX = [
  ['read-city', 10],
  ['read-cities', 4],
  ['read-user', 10],
  ['read-me', 8],
  ['read-banlist', 4],
  ['read-site', 4],
  ['sessions', 3],
  ['userkey', 10],
  ['logins', 10],
  ['nickname', 8],
  ['city-request', 8],
  ['decide', 10],
  ['forced-create', 2],
  ['edit', 5],
  ['register', 1],
  ['sign-in', 1],
];
const MIX_TOTAL = MIX.reduce((sum, [, weight]) => sum + weight, 0);

function chooseStep() {
  let roll = Math.random() * MIX_TOTAL;
  for (const [kind, weight] of MIX) {
    roll -= weight;
    if (roll < 0) {
      return kind;
    }
  }
  return MIX[0][0];
}

async function runWorker() {
  const setup = await new Promise((resolve) => process.once('message', resolve));
  const { base, operatorKey, gameKey, pool, lanes, opsPerLane, tag, syncEvery } = setup;
  const records = { kind: [], tenth: [], ms: [], status: [] };
  const kinds = [];
  const kindIndex = new Map();
  const unexpected = [];
  let done = 0;

  function record(kind, tenth, ms, status) {
    let index = kindIndex.get(kind);
    if (index === undefined) {
      index = kinds.length;
      kinds.push(kind);
      kindIndex.set(kind, index);
    }
    records.kind.push(index);
    records.tenth.push(tenth);
    records.ms.push(Math.round(ms * 100) / 100);
    records.status.push(status);
  }

  async function runLane(lane) {
    const gameServer = { 'x-api-key': gameKey };
    const operator = { 'x-api-key': operatorKey };
    let step = 0;

    /** One timed request; `expect` lists the statuses the mix counts as right for it. */
    async function call(kind, method, path, body, headers = {}, expect = [200, 201]) {
      const tenth = Math.min(9, Math.floor((step * 10) / opsPerLane));
      const started = performance.now();
      let status;
      let json;
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        status = response.status;
        const text = await response.text();
        json = text ? JSON.parse(text) : undefined;
      } catch (error) {
        status = 0;
        json = { error: String(error && error.cause ? error.cause : error) };
      }
      record(kind, tenth, performance.now() - started, status);
      step += 1;
      done += 1;
      if (done % 50 === 0) {
        process.send({ type: 'progress', done });
      }
      if (status !== 0 && status < 500 && !expect.includes(status) && unexpected.length < 50) {
        unexpected.push({ kind, method, path, status, body: JSON.stringify(json).slice(0, 300) });
      }
      return { status, json, ok: expect.includes(status) && status < 300 };
    }

    async function issueKey(player) {
      const answer = await call('userkey', 'POST', '/game-server/userkeys', player, gameServer);
      return answer.ok ? answer.json.userkey : undefined;
    }

    let sequence = 0;
    function cityFields(userkey) {
      sequence += 1;
      return {
        usertoken: userkey,
        cityName: `LT ${tag} ${lane.id} ${sequence}`,
        cityNameKana: `ライフ${kana(lane.id)}ン${kana(sequence)}`,
        summary: `summary ${sequence}`,
        corners: square(lane.id * 200_000 + sequence * 20, 7_000 + (tag === 'mysql' ? 100 : 0)),
        count: 100,
        recaptcha: 'lifetime',
      };
    }

    const cities = lane.cities;
    const live = () => cities.filter((city) => city.status === 'approved');

    async function read(kind) {
      switch (kind) {
        case 'read-city': {
          const city = pick(live()) ?? pick(cities);
          return city ? call('read-city', 'GET', `/cities/${city.id}`, undefined, {}, [200, 404]) : call('read-cities', 'GET', '/cities');
        }
        case 'read-cities':
          return call('read-cities', 'GET', '/cities');
        case 'read-user':
          return call('read-user', 'GET', `/users/${pick(pool).mcid}`);
        case 'read-site': {
          // The players site's reads (bare answers: an unknown player is a 200 too).
          const player = pick(pool);
          const paths = [`/v2/users/data/${player.mcid}`, `/v2/users/info/${player.uuid}`, `/v2/users/daily-online?uuid=${player.uuid}`, `/v2/users/punishment/${player.uuid}`, '/v2/users/recentLogin'];
          return call('read-site', 'GET', paths[step % paths.length]);
        }
        case 'read-me':
          return call('read-me', 'GET', '/club/@me', undefined, { authorization: `Bearer ${lane.account.token}` });
        default:
          return call('read-banlist', 'GET', `/users/banlist/${pick(pool).uuid}`, undefined, {}, [200, 404]);
      }
    }

    /** Deleting a city rejects its pending requests too. */
    async function deleteOldest(registered) {
      const city = registered[0];
      const answer = await call('delete', 'DELETE', `/cities/${city.id}`, undefined, operator);
      if (answer.ok) {
        city.status = 'deleted';
        city.pendingUpdate = undefined;
      }
    }

    /** Approve or reject the oldest open request of this lane (creates first), or delete a city past the cap. */
    async function decide() {
      const pendingCreate = cities.find((city) => city.status === 'pending');
      if (pendingCreate) {
        if (Math.random() < 0.75) {
          const answer = await call('approve', 'POST', `/cities/approval/create/${pendingCreate.id}`, undefined, operator);
          if (answer.ok) {
            pendingCreate.status = 'approved';
          }
        } else {
          const answer = await call('reject', 'POST', `/cities/reject/create/${pendingCreate.requestId}`, { reason: 'lifetime' }, operator);
          if (answer.ok) {
            pendingCreate.status = 'rejected';
          }
        }
        return;
      }
      const pendingUpdate = cities.find((city) => city.pendingUpdate);
      if (pendingUpdate) {
        const { requestId, summary } = pendingUpdate.pendingUpdate;
        if (Math.random() < 0.6) {
          const answer = await call('approve', 'POST', `/cities/approval/update/${pendingUpdate.id}`, undefined, operator);
          if (answer.ok) {
            pendingUpdate.summary = summary;
            pendingUpdate.pendingUpdate = undefined;
          }
        } else {
          const answer = await call('reject', 'POST', `/cities/reject/update/${requestId}`, { reason: 'lifetime' }, operator);
          if (answer.ok) {
            pendingUpdate.pendingUpdate = undefined;
          }
        }
        return;
      }
      const registered = live();
      if (registered.length >= LIVE_CITIES_PER_LANE) {
        await deleteOldest(registered);
        return;
      }
      await read('read-city');
    }

    while (step < opsPerLane) {
      if (lane.syncs && syncEvery > 0 && step > 0 && step % syncEvery === 0) {
        await call('banlist-sync', 'POST', '/users/banlist/sync', undefined, operator);
        continue;
      }
      const kind = chooseStep();
      switch (kind) {
        case 'userkey':
          await issueKey(pick(pool));
          break;
        case 'logins': {
          const logins = Array.from({ length: 10 }, () => {
            const player = pick(pool);
            return { uuid: player.uuid, mcid: player.mcid, loggedInAt: new Date(Date.now() - Math.floor(Math.random() * 86_400_000)).toISOString() };
          });
          await call('logins', 'POST', '/game-server/logins', { logins }, gameServer);
          break;
        }
        case 'sessions': {
          const player = pick(pool);
          const startedAt = Date.now() - 3_600_000 - Math.floor(Math.random() * 86_400_000);
          const session = { id: `lt-${tag}-${lane.id}-${step}`, ...player, startedAt: new Date(startedAt).toISOString(), endedAt: new Date(startedAt + 1_800_000).toISOString() };
          await call('sessions', 'POST', '/game-server/sessions', { sessions: [session] }, gameServer);
          break;
        }
        case 'nickname': {
          const nickname = `Lifetime ${lane.id}-${step}`;
          const answer = await call('nickname', 'POST', '/club/nickname', { nickname, recaptcha: 'lifetime' }, { authorization: `Bearer ${lane.account.token}` });
          if (answer.ok) {
            lane.account.nickname = nickname;
          }
          break;
        }
        case 'city-request':
        case 'forced-create': {
          // The data stays capped (the city list is a read whose cost grows with it): past a few
          // live cities per lane, the oldest is deleted instead.
          const registered = live();
          if (registered.length >= LIVE_CITIES_PER_LANE) {
            await deleteOldest(registered);
            break;
          }
          const userkey = await issueKey(lane.account);
          if (!userkey) {
            break;
          }
          const forced = kind === 'forced-create';
          const fields = cityFields(userkey);
          const answer = await call(kind, 'POST', '/cities/create', forced ? { ...fields, force: true } : fields, forced ? operator : {});
          if (answer.ok) {
            cities.push({ id: answer.json.cityId, requestId: answer.json.requestId, name: fields.cityName, summary: fields.summary, status: forced ? 'approved' : 'pending' });
          }
          break;
        }
        case 'decide':
          await decide();
          break;
        case 'edit': {
          const city = live().find((candidate) => !candidate.pendingUpdate);
          if (!city) {
            await read('read-cities');
            break;
          }
          const summary = `edited ${lane.id}-${step}`;
          const answer = await call('edit', 'PATCH', `/cities/edit/${city.id}`, { summary, recaptcha: 'lifetime' }, { authorization: `Bearer ${lane.account.token}` });
          if (answer.ok) {
            city.pendingUpdate = { requestId: answer.json.requestId, summary };
          }
          break;
        }
        case 'register': {
          const player = newPlayer(`r${lane.id}`);
          await call('logins', 'POST', '/game-server/logins', { logins: [{ ...player, loggedInAt: new Date().toISOString() }] }, gameServer);
          const userkey = await issueKey(player);
          if (!userkey) {
            break;
          }
          const answer = await call('register', 'POST', '/club/register', { userkey, password: PASSWORD, recaptcha: 'lifetime' });
          if (answer.ok) {
            lane.registered.push({ ...player, token: answer.json.usertoken });
          }
          break;
        }
        case 'sign-in': {
          const answer = await call('sign-in', 'POST', '/club/token', { username: lane.account.mcid, password: PASSWORD, recaptcha: 'lifetime' });
          if (answer.ok) {
            lane.account.token = answer.json.usertoken;
          }
          break;
        }
        default:
          await read(kind);
      }
    }
  }

  await Promise.all(lanes.map(runLane));
  process.send({ type: 'done', kinds, records, unexpected, lanes, done });
}

// ---------------------------------------------------------------------------------------------
// The orchestrator.
// ---------------------------------------------------------------------------------------------

function rssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const read = (name) => Number(new RegExp(`${name}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? 0) / 1024;
    return { rss: read('VmRSS'), peak: read('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** The server's own view of its memory (prom-client's process metrics on /metrics), MiB. */
async function heapMiB(base) {
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    const read = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1048576;
    return { heapUsed: read('nodejs_heap_size_used_bytes'), heapTotal: read('nodejs_heap_size_total_bytes'), external: read('nodejs_external_memory_bytes') };
  } catch {
    return { heapUsed: NaN, heapTotal: NaN, external: NaN };
  }
}

/** CPU seconds the process has used (user + system), from /proc: what a run costs the server on any machine. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function prepareDatabase(kind) {
  if (kind === 'mysql') {
    const mysql = require('mysql2/promise');
    const server = new URL(process.env.LIFETIME_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306');
    const name = `community_lifetime_${Date.now()}`;
    server.pathname = '';
    const serverUrl = server.toString().replace(/\/$/, '');
    const admin = await mysql.createConnection(serverUrl);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    return {
      url: `${serverUrl}/${name}`,
      where: `database ${name}`,
      drop: async () => {
        const again = await mysql.createConnection(serverUrl);
        await again.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await again.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'community-lifetime-'));
  const file = join(dir, 'lifetime.sqlite');
  return { url: `sqlite:${file}`, where: file, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** The ban-list upstream: a ban for one player in ten, 404 (never seen there) for the rest. */
async function startUpstream() {
  const server = createHttpServer((request, response) => {
    const match = /^\/player\/([^/?]+)$/.exec(request.url ?? '');
    response.setHeader('connection', 'close');
    if (!match) {
      response.writeHead(400).end();
      return;
    }
    const uuid = decodeURIComponent(match[1]).replace(/-/g, '').toLowerCase();
    const hash = createHash('sha1').update(uuid).digest();
    if (hash[0] % 10 !== 0) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    const body = {
      playerId: hash.readUInt16BE(1),
      name: `banned_${uuid.slice(0, 6)}`,
      uuid,
      reputation: -3,
      bans: [{ banId: hash.readUInt32BE(2) % 1_000_000, type: 'global', reason: 'griefing', bannedAt: '2020-05-01T12:00:00.000Z', server: { address: 'play.example.net' }, bannedBy: { name: 'Moderator', uuid: '0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f' }, lostRep: 3 }],
      lastCheckedAt: new Date().toISOString(),
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) };
}

/**
 * The webhook receiver: records (webhook, event, delivery id, answer) and refuses one first attempt
 * in thirty with a 503, so that retries happen (and must reuse the delivery id).
 */
async function startReceiver() {
  const received = [];
  const refusedOnce = new Set();
  const state = { phase: 'load' };
  const server = createHttpServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      let eventId = null;
      try {
        eventId = JSON.parse(Buffer.concat(chunks).toString('utf8')).id;
      } catch {
        // recorded with a null event: the check reports it
      }
      const hook = request.url ?? '';
      const delivery = String(request.headers['x-community-delivery'] ?? '');
      const key = `${hook} ${eventId}`;
      let status = 200;
      if (!refusedOnce.has(key) && Math.random() < 1 / 30) {
        refusedOnce.add(key);
        status = 503;
      }
      received.push({ hook, eventId, delivery, status, phase: state.phase, at: Date.now() });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${server.address().port}`, received, state, stop: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) };
}

function startServer(env, port) {
  const extra = (process.env.LIFETIME_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  if (process.env.LIFETIME_HEAP_SNAPSHOTS) {
    extra.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${process.env.LIFETIME_HEAP_SNAPSHOTS}`);
  }
  const child = spawn(process.execPath, [...extra, join(root, 'dist', 'main.js')], { cwd: root, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 400) {
      output.splice(0, output.length - 400);
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, output, exited, base: `http://127.0.0.1:${port}` };
}

async function waitReady(server, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void server.exited.then(() => (ended = true));
  for (;;) {
    const ok = await fetch(`${server.base}/health/ready`).then((response) => response.status === 200, () => false);
    if (ok) {
      return;
    }
    if (ended || Date.now() > deadline) {
      throw new Error(`the server ${ended ? 'exited' : 'did not become ready'}:\n${server.output.join('').slice(-3000)}`);
    }
    await sleep(100);
  }
}

async function api(base, method, path, body, headers = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

async function mustApi(base, method, path, body, headers) {
  const answer = await api(base, method, path, body, headers);
  if (answer.status >= 300) {
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  }
  return answer.json;
}

function cli(env, args) {
  const run = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'main.js'), ...args, '--json'], { cwd: root, env, encoding: 'utf8' });
  if (run.status !== 0) {
    throw new Error(`cli ${args.join(' ')} failed: ${run.stdout} ${run.stderr}`);
  }
  return run.stdout.trim() ? JSON.parse(run.stdout) : undefined;
}

function percentile(sorted, fraction) {
  if (sorted.length === 0) {
    return NaN;
  }
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

/** Per kind, per tenth: count, p50, p99 (ms). */
function latencyTable(results) {
  const table = new Map();
  for (const result of results) {
    const { kinds, records } = result;
    for (let index = 0; index < records.kind.length; index += 1) {
      const kind = kinds[records.kind[index]];
      if (!table.has(kind)) {
        table.set(kind, Array.from({ length: 10 }, () => []));
      }
      table.get(kind)[records.tenth[index]].push(records.ms[index]);
    }
  }
  const summary = new Map();
  for (const [kind, tenths] of [...table].sort(([a], [b]) => a.localeCompare(b))) {
    summary.set(
      kind,
      tenths.map((samples) => {
        const sorted = samples.sort((a, b) => a - b);
        return { n: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
      }),
    );
  }
  return summary;
}

const fmt = (value) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(1) : String(Math.round(value)));

async function runDatabase(kind, operations, checks) {
  const started = Date.now();
  const check = (name, passed, detail) => {
    checks.push({ database: kind, name, passed, detail });
    process.stdout.write(`${passed ? 'PASS' : 'FAIL'} [${kind}] ${name}${detail ? ` — ${detail}` : ''}\n`);
  };
  const workersCount = Number(process.env.LIFETIME_WORKERS ?? 3);
  const lanesPerWorker = Number(process.env.LIFETIME_LANES ?? 2);
  const lanesTotal = workersCount * lanesPerWorker;
  const opsPerLane = Math.ceil(operations / lanesTotal);
  const watchdogMs = Number(process.env.LIFETIME_WATCHDOG_SECONDS ?? 900) * 1000;
  const ceiling = Number(process.env.LIFETIME_RSS_CEILING_MB ?? 320);

  const database = await prepareDatabase(kind);
  const upstream = await startUpstream();
  const receiver = await startReceiver();
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    APP_VERSION: 'lifetime',
    // All traffic comes from one address, and the mix signs in far more often than people do.
    RATE_LIMIT_ENABLED: 'false',
    // The receiver is on loopback; retries come quickly so that a run sees them.
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_BASE_MS: '200',
    BANLIST_SOURCE_URL: upstream.url,
    CITY_MAX_PER_OWNER: '100000',
    // The server runs with the memory settings of the container image (glibc's mmap threshold, the V8
    // heap limit: docs/reliability.md, "Memory"); this environment's own MALLOC_* or NODE_OPTIONS win.
    ...imageMemoryEnv(),
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MALLOC_') || name === 'NODE_OPTIONS')),
  };
  cli(env, ['migration:run']);
  const gameKey = cli(env, ['apikey:create', '--name', 'lifetime-game', '--scope', 'game-server']).key;
  const operatorKey = cli(env, ['apikey:create', '--name', 'lifetime-operator', '--scope', 'operator']).key;
  const operator = { 'x-api-key': operatorKey };
  const gameServer = { 'x-api-key': gameKey };

  const workers = [];
  let server = startServer(env, await freePort());
  let watchdogFired = false;
  const watchdog = setTimeout(() => {
    watchdogFired = true;
    log(`[${kind}] watchdog: ${watchdogMs / 1000} s passed; stopping everything`);
    for (const worker of workers) {
      worker.kill('SIGKILL');
    }
    server.child.kill('SIGKILL');
  }, watchdogMs);
  const rssCurve = [];
  let sampler;
  try {
    await waitReady(server);
    // Seed: a pool of players (logged in), and per lane one club account that owns its cities.
    const pool = Array.from({ length: 300 }, (_, index) => newPlayer(`p${index}`));
    for (let index = 0; index < pool.length; index += 50) {
      const logins = pool.slice(index, index + 50).map((player) => ({ ...player, loggedInAt: new Date().toISOString() }));
      await mustApi(server.base, 'POST', '/game-server/logins', { logins }, gameServer);
    }
    const lanes = [];
    for (let id = 0; id < lanesTotal; id += 1) {
      const player = newPlayer(`a${id}`);
      await mustApi(server.base, 'POST', '/game-server/logins', { logins: [{ ...player, loggedInAt: new Date().toISOString() }] }, gameServer);
      const { userkey } = await mustApi(server.base, 'POST', '/game-server/userkeys', player, gameServer);
      const { usertoken } = await mustApi(server.base, 'POST', '/club/register', { userkey, password: PASSWORD, recaptcha: 'lifetime' });
      lanes.push({ id, account: { ...player, token: usertoken, nickname: null }, cities: [], registered: [], syncs: id === 0 });
    }
    const hooks = [];
    for (const path of ['/hook-a', '/hook-b']) {
      const created = await mustApi(server.base, 'POST', '/webhooks', { url: `${receiver.base}${path}`, events: ['*'] }, operator);
      hooks.push({ id: created.data.id, path });
    }

    log(`[${kind}] ${operations} operations: ${workersCount} workers x ${lanesPerWorker} keep-alive clients, server pid ${server.child.pid}`);
    const loadStarted = Date.now();
    const cpuAtStart = cpuSeconds(server.child.pid);
    let progress = 0;
    const perWorker = new Array(workersCount).fill(0);
    const tenthRss = [];
    const tenthHeap = [];
    sampler = setInterval(() => {
      const { rss } = rssMiB(server.child.pid);
      rssCurve.push({ t: (Date.now() - loadStarted) / 1000, done: progress, rss });
    }, 1000);
    const results = await Promise.all(
      Array.from({ length: workersCount }, (_, index) => {
        const worker = fork(__filename, ['--worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        workers.push(worker);
        return new Promise((resolve, reject) => {
          worker.on('message', (message) => {
            if (message.type === 'progress') {
              perWorker[index] = message.done;
              progress = perWorker.reduce((sum, value) => sum + value, 0);
              while (tenthRss.length < 10 && progress >= ((tenthRss.length + 1) * lanesTotal * opsPerLane) / 10) {
                tenthRss.push(rssMiB(server.child.pid).rss);
                log(`[${kind}] tenth ${tenthRss.length}: ${progress} operations, ${Math.round((Date.now() - loadStarted) / 1000)} s, RSS ${Math.round(tenthRss.at(-1))} MiB`);
                void heapMiB(server.base).then((heap) => tenthHeap.push(heap));
                if (tenthRss.length === 1 && process.env.LIFETIME_HEAP_SNAPSHOTS) {
                  server.child.kill('SIGUSR2');
                }
              }
            } else if (message.type === 'done') {
              resolve(message);
            }
          });
          worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load-generator worker ${index} exited with ${code}`))));
          worker.send({
            base: server.base,
            operatorKey,
            gameKey,
            pool,
            lanes: lanes.slice(index * lanesPerWorker, (index + 1) * lanesPerWorker),
            opsPerLane,
            tag: kind,
            // About ten ban-list syncs a run (each refreshes every known player).
            syncEvery: Math.max(50, Math.floor(opsPerLane / 10)),
          });
        });
      }),
    );
    clearInterval(sampler);
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    const serverCpu = cpuSeconds(server.child.pid) - cpuAtStart;
    // The last tenth ends with the last answer (progress is reported every 50 operations a worker).
    while (tenthRss.length < 10) {
      tenthRss.push(rssMiB(server.child.pid).rss);
      tenthHeap.push(await heapMiB(server.base));
    }
    for (const worker of workers) {
      if (worker.connected) {
        worker.disconnect();
      }
    }
    // The end value: the median of three readings over a second and a half (one GC cycle is not growth).
    const tail = [];
    for (let index = 0; index < 3; index += 1) {
      tail.push(rssMiB(server.child.pid).rss);
      await sleep(500);
    }
    const rssEnd = tail.sort((a, b) => a - b)[1];
    const heapEnd = await heapMiB(server.base);
    if (process.env.LIFETIME_HEAP_SNAPSHOTS) {
      server.child.kill('SIGUSR2');
      await sleep(20_000);
    }
    const rssPeak = rssMiB(server.child.pid).peak;
    const lanesAfter = results.flatMap((result) => result.lanes);
    const total = results.reduce((sum, result) => sum + result.records.kind.length, 0);
    const statuses = new Map();
    for (const result of results) {
      for (const status of result.records.status) {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }
    const count = (predicate) => [...statuses].filter(([status]) => predicate(status)).reduce((sum, [, n]) => sum + n, 0);

    // The report.
    const table = latencyTable(results);
    process.stdout.write(`\n== ${kind}: ${total} operations in ${loadSeconds.toFixed(0)} s (${Math.round(total / loadSeconds)}/s), statuses ${JSON.stringify(Object.fromEntries(statuses))}; server CPU ${serverCpu.toFixed(0)} s (${((serverCpu * 1000) / total).toFixed(1)} ms an operation)\n`);
    process.stdout.write(`latency ms per tenth, p50/p99 (n = operations of the kind per tenth)\n`);
    for (const [name, tenths] of table) {
      process.stdout.write(`  ${name.padEnd(14)} n≈${String(tenths[0].n).padEnd(5)} ${tenths.map((t) => `${fmt(t.p50)}/${fmt(t.p99)}`).join('  ')}\n`);
    }
    const curveStep = Math.max(1, Math.ceil(rssCurve.length / 20));
    const sampled = rssCurve.filter((_, index) => index % curveStep === 0 || index === rssCurve.length - 1);
    process.stdout.write(`RSS MiB after each tenth: ${tenthRss.map((value) => Math.round(value)).join(' ')}; end ${Math.round(rssEnd)}, peak ${Math.round(rssPeak)}\n`);
    const heapLine = (h) => `${fmt(h.heapUsed)}/${fmt(h.heapTotal)}/${fmt(h.external)}`;
    process.stdout.write(`JS heap used/total/external MiB after each tenth: ${tenthHeap.map(heapLine).join(' ')}; end ${heapLine(heapEnd)}\n`);
    process.stdout.write(`RSS curve (s:operations:MiB): ${sampled.map((s) => `${Math.round(s.t)}:${s.done}:${Math.round(s.rss)}`).join(' ')}\n`);
    const unexpected = results.flatMap((result) => result.unexpected);

    check('no 5xx answers', count((status) => status >= 500) === 0, `${count((status) => status >= 500)} of ${total}`);
    check('no connection errors', count((status) => status === 0) === 0, `${count((status) => status === 0)} of ${total}`);
    check('every answer as the mix expects', unexpected.length === 0, unexpected.length ? unexpected.slice(0, 5).map((u) => `${u.method} ${u.path} ${u.status} ${u.body}`).join(' | ') : `${total} answers`);
    const slow = [];
    for (const [name, tenths] of table) {
      const [first, last] = [tenths[0], tenths[9]];
      if (GROWING_KINDS.has(name) || first.n < MIN_SAMPLES || last.n < MIN_SAMPLES) {
        continue;
      }
      if (last.p99 > 3 * first.p99 + 5) {
        slow.push(`${name} ${fmt(first.p99)} -> ${fmt(last.p99)} ms`);
      }
    }
    check('p99 of the last tenth <= 3 x first tenth + 5 ms, per kind', slow.length === 0, slow.join(', ') || `${[...table.keys()].filter((name) => !GROWING_KINDS.has(name)).length} kinds`);
    const afterFirst = tenthRss[0] ?? 0;
    check('RSS at the end <= 1.5 x RSS after the first tenth', rssEnd <= 1.5 * afterFirst, `${Math.round(afterFirst)} -> ${Math.round(rssEnd)} MiB`);
    check(`peak RSS under ${ceiling} MiB`, rssPeak < ceiling, `${Math.round(rssPeak)} MiB`);

    // SIGTERM, a restart on the same database, and what must have survived.
    receiver.state.phase = 'shutdown';
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    receiver.state.phase = 'restart';
    check('clean exit on SIGTERM', exit.code === 0, `code ${exit.code}, signal ${exit.signal}`);
    server = startServer(env, await freePort());
    await waitReady(server);

    const missing = [];
    let verified = 0;
    for (const lane of lanesAfter) {
      const me = await api(server.base, 'GET', '/club/@me', undefined, { authorization: `Bearer ${lane.account.token}` });
      verified += 1;
      if (me.status !== 200 || (lane.account.nickname !== null && me.json.data.nickname !== lane.account.nickname)) {
        missing.push(`account ${lane.account.mcid}: ${me.status} nickname ${me.json?.data?.nickname} (acknowledged ${lane.account.nickname})`);
      }
      for (const account of lane.registered) {
        const answer = await api(server.base, 'GET', '/club/@me', undefined, { authorization: `Bearer ${account.token}` });
        verified += 1;
        if (answer.status !== 200) {
          missing.push(`registered ${account.mcid}: ${answer.status}`);
        }
      }
      for (const city of lane.cities) {
        if (city.status === 'pending') {
          continue;
        }
        const answer = await api(server.base, 'GET', `/cities/${city.id}`);
        verified += 1;
        const expected = city.status === 'approved' ? 200 : 404;
        if (answer.status !== expected || (expected === 200 && (answer.json.data.name !== city.name || answer.json.data.summary !== city.summary))) {
          missing.push(`city ${city.id} (${city.status}): ${answer.status} ${answer.json?.data?.name}/${answer.json?.data?.summary} (acknowledged ${city.name}/${city.summary})`);
        }
      }
    }
    check('every acknowledged write is there after the restart', missing.length === 0, missing.slice(0, 5).join(' | ') || `${verified} records`);

    // Webhooks: every event, exactly once acknowledged per webhook, retries with one delivery id.
    const events = [];
    for (let after = 0; ; ) {
      const page = await mustApi(server.base, 'GET', `/events?after=${after}&limit=500`, undefined, operator);
      events.push(...page.data.map((event) => event.id));
      if (page.data.length === 0 || page.next === after) {
        break;
      }
      after = page.next;
    }
    const acknowledged = () => {
      const byPair = new Map();
      for (const request of receiver.received) {
        const key = `${request.hook} ${request.eventId}`;
        const entry = byPair.get(key) ?? { ok: 0, deliveries: new Set(), phases: [] };
        entry.ok += request.status === 200 ? 1 : 0;
        entry.phases.push(`${request.status}@${request.phase}`);
        entry.deliveries.add(request.delivery);
        byPair.set(key, entry);
      }
      return byPair;
    };
    // The backlog drains as long as it shrinks; a minute without progress means it is stuck.
    const drainStarted = Date.now();
    let pending = Infinity;
    let backlogAtRestart;
    let lastProgress = Date.now();
    for (;;) {
      const byPair = acknowledged();
      const now = hooks.reduce((sum, hook) => sum + events.filter((id) => !(byPair.get(`${hook.path} ${id}`)?.ok >= 1)).length, 0);
      backlogAtRestart ??= now;
      if (now < pending) {
        lastProgress = Date.now();
      }
      pending = now;
      if (pending === 0 || Date.now() - lastProgress > 60_000) {
        break;
      }
      await sleep(500);
    }
    log(`[${kind}] webhook backlog after the restart: ${backlogAtRestart} deliveries, ${pending} left after ${Math.round((Date.now() - drainStarted) / 1000)} s`);
    // A moment more: a duplicate would arrive now.
    await sleep(1500);
    const byPair = acknowledged();
    const problems = [];
    for (const hook of hooks) {
      for (const id of events) {
        const entry = byPair.get(`${hook.path} ${id}`);
        if (!entry || entry.ok !== 1 || entry.deliveries.size !== 1) {
          problems.push(`${hook.path} event ${id}: ${entry ? `${entry.ok} acknowledged (${entry.phases.join(', ')}), ${entry.deliveries.size} delivery ids` : 'never delivered'}`);
        }
      }
    }
    const retried = [...byPair.values()].filter((entry) => entry.ok === 1 && entry.deliveries.size === 1).length;
    check(
      'every event acknowledged exactly once per webhook (retries reuse the delivery id)',
      problems.length === 0 && events.length > 0,
      problems.length ? `${problems.length} problems: ${problems.slice(0, 5).join(' | ')}` : `${events.length} events x ${hooks.length} webhooks, ${receiver.received.length} requests (${receiver.received.filter((r) => r.status !== 200).length} refused first attempts), ${retried} pairs`,
    );

    const lane = lanesAfter[0];
    const nickname = await api(server.base, 'POST', '/club/nickname', { nickname: 'After restart', recaptcha: 'lifetime' }, { authorization: `Bearer ${lane.account.token}` });
    const login = await api(server.base, 'POST', '/game-server/logins', { logins: [{ ...pool[0], loggedInAt: new Date().toISOString() }] }, gameServer);
    check('the restarted service takes writes', nickname.status === 200 && login.status < 300, `nickname ${nickname.status}, logins ${login.status}`);
    server.child.kill('SIGTERM');
    await server.exited;
    log(`[${kind}] done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    check('the run completed', false, watchdogFired ? 'the watchdog fired' : String(error.stack ?? error).slice(0, 2000));
  } finally {
    clearTimeout(watchdog);
    clearInterval(sampler);
    check('watchdog did not fire', !watchdogFired, `limit ${watchdogMs / 1000} s`);
    for (const worker of workers) {
      if (worker.exitCode === null) {
        worker.kill('SIGKILL');
      }
    }
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await upstream.stop();
    await receiver.stop();
    if (process.env.LIFETIME_KEEP === '1') {
      log(`[${kind}] kept ${database.where}`);
    } else {
      await database.drop();
    }
  }
}

async function main() {
  if (!existsSync(join(root, 'dist', 'main.js'))) {
    throw new Error('dist/main.js is missing: run `npm run build` first');
  }
  const databases = (process.env.LIFETIME_DATABASES ?? 'sqlite,mysql').split(',').map((name) => name.trim()).filter(Boolean);
  const checks = [];
  for (const kind of databases) {
    const operations = Number(kind === 'mysql' ? (process.env.LIFETIME_MYSQL_OPS ?? 20_000) : (process.env.LIFETIME_SQLITE_OPS ?? 50_000));
    await runDatabase(kind, operations, checks);
  }
  const passed = checks.filter((check) => check.passed).length;
  const failed = checks.length - passed;
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[2] === '--worker') {
  runWorker().catch((error) => {
    process.stderr.write(`[lifetime worker] ${error.stack ?? error}\n`);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    log(error.stack ?? String(error));
    process.stdout.write('0 passed, 1 failed\n');
    process.exit(1);
  });
}
