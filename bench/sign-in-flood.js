#!/usr/bin/env node
// Other users' sign-ins while one registered user at one address keeps 70 sign-ins in flight
// (docs/reliability.md, "Fair shares").
//   npm run build && node bench/sign-in-flood.js [--seconds 10] [--flood 70] [--every-ms 500]
// Starts dist/main.js on a temporary SQLite file (rate limits on, the client address taken from
// X-Forwarded-For), registers one flooder and ten other users, then for each setting below:
// the others alone, then the others while the flooder's workers resend at once after every
// answer. The server, the flood and the timed sign-ins each run in their own process, so that
// neither the flood's client nor the server's work delays the clock. Prints one JSON object.
//   node bench/sign-in-flood.js [--setting defaults|queue-only] [--profile-dir DIR] (the server's CPU profile)
const { execFileSync, fork, spawn } = require('node:child_process');
const { randomInt, randomUUID } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { arg } = require('./import-load');

const ROOT = join(__dirname, '..');
const seconds = Number(arg('seconds', '10'));
const floodSize = Number(arg('flood', '70'));
const everyMs = Number(arg('every-ms', '500'));
const profileDir = arg('profile-dir', undefined);
const PASSWORD = 'bench-password-1';
const SETTINGS = {
  // The shipped defaults: the per-account sign-in rate refuses the flooder's 21st sign-in of the hour.
  // (Ten other users signing in every 500 ms in turn for 10 s stay under it: two sign-ins each.)
  defaults: {},
  // The rate out of the way: what the hashing queue's turns and shares do alone.
  'queue-only': { SIGN_INS_PER_ACCOUNT_PER_HOUR: '1000000' },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => (sorted.length === 0 ? null : Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]));
  return { count: sorted.length, p50: at(50), p99: at(99), max: sorted.length ? Math.round(sorted[sorted.length - 1]) : null };
}

function countStatuses(statuses) {
  const counts = {};
  for (const status of statuses) {
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

async function post(base, path, body, headers = {}) {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text };
}

async function register(base, key) {
  const uuid = randomUUID();
  const mcid = `b${randomInt(1e9).toString(36)}`;
  const issued = await post(base, '/game-server/userkeys', { uuid, mcid }, { 'x-api-key': key });
  const { userkey } = JSON.parse(issued.text);
  const registered = await post(base, '/club/register', { userkey, password: PASSWORD, recaptcha: 'bench' }, { 'x-forwarded-for': address() });
  if (registered.status !== 201) {
    throw new Error(`register failed: ${registered.status} ${registered.text}`);
  }
  return mcid;
}

const signIn = (base, username, ip) => post(base, '/club/token', { username, password: PASSWORD, recaptcha: 'bench' }, { 'x-forwarded-for': ip });

/** One sign-in of another user every `everyMs`, each from its own address, until the time is up. */
async function victims(base, names, until) {
  const samples = [];
  const pending = [];
  for (let n = 0; Date.now() < until; n += 1) {
    const sentAt = Date.now();
    const started = performance.now();
    pending.push(
      signIn(base, names[n % names.length], address()).then((result) => {
        samples.push({ sentAt, ms: performance.now() - started, status: result.status });
      }),
    );
    await sleep(everyMs);
  }
  await Promise.all(pending);
  return samples;
}

function summarise(samples) {
  return { latencyMs: stats(samples.map((sample) => sample.ms)), statuses: countStatuses(samples.map((sample) => sample.status)) };
}

/** Which limit answered a 429, from its message. */
function refusalKind(text) {
  if (/password checks/.test(text)) {
    return '429 queue share';
  }
  if (/sign-ins to this account/.test(text)) {
    return '429 sign-ins per account';
  }
  if (/requests from this address/.test(text)) {
    return '429 requests per address';
  }
  return '429 other';
}

/**
 * The flood, in a child process: runs until told to stop, then reports its answers (429s by the
 * limit that answered) and when the per-address request limit first turned it away at the door.
 */
async function floodProcess(base, name) {
  const answers = [];
  const ip = address();
  let firstDoorRefusalAt = null;
  let stopped = false;
  process.on('message', () => (stopped = true));
  await Promise.all(
    Array.from({ length: floodSize }, async () => {
      while (!stopped) {
        const result = await signIn(base, name, ip);
        const kind = result.status === 429 ? refusalKind(result.text) : String(result.status);
        if (kind === '429 requests per address' && firstDoorRefusalAt === null) {
          firstDoorRefusalAt = Date.now();
        }
        answers.push(kind);
      }
    }),
  );
  process.send({ answers: countStatuses(answers), firstDoorRefusalAt }, () => process.exit(0));
}

function startFlood(base, name) {
  const child = fork(__filename, ['--flood-worker', base, name, '--flood', String(floodSize)]);
  const report = new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`flood process exited with ${code}`))));
  });
  return { stop: () => (child.send('stop'), report) };
}

async function run(label, extraEnv) {
  const port = 3900 + randomInt(90);
  const base = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'sign-in-flood-'));
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'true',
    TRUST_PROXY: '127.0.0.1',
    APP_VERSION: 'bench',
    NODE_ENV: 'development',
    ENV_FILE: '',
    ...extraEnv,
  };
  const created = execFileSync(process.execPath, [join(ROOT, 'scripts', 'cli.js'), 'apikey:create', '--name', 'bench', '--scope', 'game-server', '--json'], { env });
  const { key } = JSON.parse(created.toString());
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const server = spawn(process.execPath, [...profile, join(ROOT, 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (let tries = 0; !(await fetch(`${base}/health/ready`).then((r) => r.ok, () => false)); tries += 1) {
      if (tries > 200) {
        throw new Error('server did not start');
      }
      await sleep(100);
    }
    const flooder = await register(base, key);
    const others = [];
    for (let index = 0; index < 10; index += 1) {
      others.push(await register(base, key));
    }
    const alone = await victims(base, others, Date.now() + 2000);
    const flood = startFlood(base, flooder);
    const floodStartedAt = Date.now();
    const during = await victims(base, others, Date.now() + seconds * 1000);
    const flooded = await flood.stop();
    // Until the per-address request limit (600 a minute) turns the flood away at the door, its
    // sign-ins reach the hashing queue: that span shows the queue's fairness; the rest, the door.
    const door = flooded.firstDoorRefusalAt ?? Infinity;
    return {
      setting: label,
      env: extraEnv,
      othersAlone: summarise(alone),
      othersWhileFloodReachesQueue: { ...summarise(during.filter((sample) => sample.sentAt < door)), spanMs: Number.isFinite(door) ? door - floodStartedAt : null },
      othersAfterFloodTurnedAwayAtDoor: summarise(during.filter((sample) => sample.sentAt >= door)),
      othersDuringFlood: summarise(during),
      flooder: flooded.answers,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.on('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const worker = process.argv.indexOf('--flood-worker');
  if (worker >= 0) {
    await floodProcess(process.argv[worker + 1], process.argv[worker + 2]);
    return;
  }
  const only = arg('setting', undefined);
  const results = [];
  for (const [label, env] of Object.entries(SETTINGS)) {
    if (!only || only === label) {
      results.push(await run(label, env));
    }
  }
  process.stdout.write(`${JSON.stringify({ flood: floodSize, seconds, everyMs, results }, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
