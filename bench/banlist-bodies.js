#!/usr/bin/env node
// node bench/banlist-bodies.js — the server's memory and other clients' latency while the ban-list
// upstream answers with hostile bodies (docs/reliability.md, Fault suite; SECURITY.md, Availability).
//
// Builds the service (dist/, unless BENCH_BUILD=0), starts it as its own process with the image's
// memory settings and the default ban-list settings (BANLIST_TIMEOUT_MS 10000, 4 players at a
// time), on a fresh SQLite database with BENCH_PLAYERS hostile players (8) and one ordinary one.
// For each kind of answer it runs one sync while another client reads that ordinary player's
// record in a loop, samples the service's RSS from /proc every 25 ms, and prints one JSON object:
// per kind, the sync's time and summary, RSS before / peak / 5 s after (MiB), and the other
// client's request count, median, p99 and slowest (ms).
//
// Kinds: ordinary (a few hundred bytes), huge (400 MB, chunked), bomb (gzip, 10 GiB from 10 MB),
// endless (one byte every 100 ms, for ever). BENCH_KINDS=huge,bomb picks some.
const { spawnSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { createServer } = require('node:http');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const { startService } = require('./service-process');

const root = join(__dirname, '..');
const HOSTILE = Number(process.env.BENCH_PLAYERS ?? 8);
const KINDS = (process.env.BENCH_KINDS ?? 'ordinary,huge,bomb,endless').split(',');
const log = (message) => process.stderr.write(`[banlist-bodies] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

function playerBody(uuid) {
  return JSON.stringify({ playerId: 1, name: 'Bench', uuid: uuid.replace(/-/g, ''), reputation: 7, bans: [], lastCheckedAt: '2026-01-01T00:00:00.000Z' });
}

/** Writes `chunk` `times` times (or for ever), then `tail`, minding backpressure; stops when the client closes. */
function pour(response, chunk, times, tail) {
  let sent = 0;
  let closed = false;
  response.on('close', () => (closed = true));
  const more = () => {
    while (!closed) {
      if (sent >= times) {
        response.end(tail);
        return;
      }
      sent += 1;
      if (!response.write(chunk)) {
        response.once('drain', more);
        return;
      }
    }
  };
  more();
}

/** The upstream: answers every `GET /player/{uuid}` in the current `kind`, the ordinary player always ordinarily. */
function startUpstream(state) {
  const spaces = Buffer.alloc(64 * 1024, ' ');
  const member = gzipSync(Buffer.alloc(8 * 1024 * 1024, ' '), { level: 9 });
  const server = createServer((request, response) => {
    const uuid = /^\/player\/([^/?]+)$/.exec(request.url ?? '')?.[1] ?? '';
    response.setHeader('connection', 'close');
    const kind = uuid === state.ordinary.replace(/-/g, '') || uuid === state.ordinary ? 'ordinary' : state.kind;
    switch (kind) {
      case 'huge':
        response.writeHead(200, { 'content-type': 'application/json' });
        pour(response, spaces, (400 * 1024 * 1024) / spaces.length, playerBody(uuid));
        return;
      case 'bomb':
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        pour(response, member, 1280, gzipSync(playerBody(uuid)));
        return;
      case 'endless': {
        response.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => response.write(' '), 100);
        response.on('close', () => clearInterval(timer));
        return;
      }
      default:
        response.writeHead(200, { 'content-type': 'application/json' }).end(playerBody(uuid));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

function cli(args, env) {
  const result = spawnSync(process.execPath, [join(root, 'dist', 'cli', 'main.js'), ...args, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`cli ${args.join(' ')} failed: ${result.stdout} ${result.stderr}`);
  }
  return JSON.parse(result.stdout);
}


const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

async function main() {
  if (process.env.BENCH_BUILD !== '0') {
    log('building');
    if (spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 2, 2] }).status !== 0) {
      throw new Error('build failed');
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'banlist-bodies-'));
  const state = { kind: 'ordinary', ordinary: randomUUID() };
  const upstream = await startUpstream(state);
  const env = {
    ENV_FILE: '',
    DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    RECAPTCHA_SECRET: 'bench-secret',
    BANLIST_SOURCE_URL: upstream.url,
    BANLIST_SYNC_CRON: '0 0 1 1 *',
    BANLIST_MAX_TIMEOUTS_IN_A_ROW: '1000',
    PORT: String(40000 + Math.floor(Math.random() * 10000)),
  };
  cli(['migration:run'], env);
  const operator = cli(['apikey:create', '--name', 'bench-operator', '--scope', 'operator'], env).key;
  const gameServer = cli(['apikey:create', '--name', 'bench-game-server', '--scope', 'game-server'], env).key;
  const service = await startService(env);
  const results = {};
  try {
    const players = [state.ordinary, ...Array.from({ length: HOSTILE }, () => randomUUID())];
    const logins = players.map((uuid, index) => ({ uuid, mcid: `bench_${index}`, loggedInAt: '2024-01-01T00:00:00Z' }));
    const stored = await fetch(`${service.base}/game-server/logins`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': gameServer }, body: JSON.stringify({ logins }) });
    if (!stored.ok) {
      throw new Error(`logins: ${stored.status}`);
    }
    const pid = service.child.pid;
    for (const kind of KINDS) {
      state.kind = kind;
      await sleep(2000);
      const rssBefore = rssMiB(pid);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(pid))), 25);
      const started = Date.now();
      let done = false;
      const sync = fetch(`${service.base}/users/banlist/sync`, { method: 'POST', headers: { 'x-api-key': operator } }).then(async (response) => ({ status: response.status, body: await response.json() }));
      void sync.finally(() => (done = true));
      const times = [];
      let failures = 0;
      while (!done) {
        const at = Date.now();
        const ok = await fetch(`${service.base}/users/${state.ordinary}`).then((response) => response.ok, () => false);
        times.push(Date.now() - at);
        failures += ok ? 0 : 1;
        await sleep(20);
      }
      const answer = await sync;
      const syncMs = Date.now() - started;
      clearInterval(sampler);
      await sleep(5000);
      results[kind] = {
        syncMs,
        summary: { status: answer.status, players: answer.body.players, updated: answer.body.updated, failed: answer.body.failed },
        rssMiB: { before: Math.round(rssBefore), peak: Math.round(rssPeak), growth: Math.round(rssPeak - rssBefore), after5s: Math.round(rssMiB(pid)) },
        otherClient: { requests: times.length, failures, medianMs: percentile(times, 0.5), p99Ms: percentile(times, 0.99), slowestMs: Math.max(0, ...times) },
      };
      log(`${kind}: ${JSON.stringify(results[kind])}`);
    }
  } finally {
    service.child.kill('SIGTERM');
    upstream.server.closeAllConnections();
    upstream.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify({ hostilePlayers: HOSTILE, concurrency: 4, timeoutMs: 10000, loadAverage: require('node:os').loadavg(), results }, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
