#!/usr/bin/env node
// What a console session costs per request, against the API key it replaces.
//   npm run build && node bench/console-session.js [--seconds 5] [--clients 4]
// Starts dist/main.js on a temporary SQLite file, signs in with an operator key
// (POST /console-session), then reads GET /cities/requests?limit=1 from N clients for S seconds
// with X-API-Key, then with the cookie; prints requests/s and p50/p99 of each as one JSON object.
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const seconds = Number(arg('seconds', '5'));
const clients = Number(arg('clients', '4'));
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(join(tmpdir(), 'console-session-bench-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false', APP_VERSION: 'bench', NODE_ENV: 'development', ENV_FILE: '' };

async function phase(headers) {
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  let failures = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const started = process.hrtime.bigint();
        const response = await fetch(`${base}/cities/requests?limit=1`, { headers });
        await response.arrayBuffer();
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (response.status !== 200) {
          failures += 1;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2));
  return { requests: latencies.length, perSecond: Math.round(latencies.length / seconds), p50ms: at(0.5), p99ms: at(0.99), failures };
}

async function main() {
  const created = execFileSync(process.execPath, [join(ROOT, 'scripts', 'cli.js'), 'apikey:create', '--name', 'bench', '--scope', 'operator', '--json'], { env });
  const { key } = JSON.parse(created.toString());
  const server = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (let tries = 0; ; tries += 1) {
      const up = await fetch(`${base}/health/ready`).then((r) => r.ok, () => false);
      if (up) {
        break;
      }
      if (tries > 200) {
        throw new Error('server did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const signIn = await fetch(`${base}/console-session`, { method: 'POST', headers: { 'x-api-key': key } });
    const cookie = signIn.headers.getSetCookie()[0].split(';')[0];
    await phase({ 'x-api-key': key }); // warm-up
    const apiKey = await phase({ 'x-api-key': key });
    const session = await phase({ cookie });
    console.log(JSON.stringify({ seconds, clients, apiKey, session }));
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
