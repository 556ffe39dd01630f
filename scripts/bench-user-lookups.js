#!/usr/bin/env node
// Times GET /users lookups by uuid, mcid and chat id against an existing database (e.g. one filled
// by `import:logins` from scripts/generate-logins.js). Needs a build (`npm run build`).
//   DATABASE_URL=sqlite:/tmp/bench-users.sqlite node scripts/bench-user-lookups.js [--requests 2000]
// Links chat ids to up to 10,000 players first (idempotent), then prints the query plans
// (SQLite) and per-kind latency through HTTP.
const { join } = require('node:path');

const requests = Number(process.argv[process.argv.indexOf('--requests') + 1] || 2000);

async function main() {
  const { loadConfig } = require(join(__dirname, '..', 'dist', 'config', 'app-config'));
  const { createApp } = require(join(__dirname, '..', 'dist', 'app.factory'));
  const { DataSource } = require('typeorm');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error', RATE_LIMIT_ENABLED: 'false', NODE_ENV: 'test' });
  const app = await createApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const db = app.get(DataSource);

  const [{ count }] = await db.query('SELECT COUNT(*) AS count FROM login_records');
  const players = await db.query('SELECT uuid, mcid FROM players WHERE last_login IS NOT NULL ORDER BY uuid LIMIT 10000');
  for (const [index, player] of players.entries()) {
    await db.query('UPDATE players SET chatid = ? WHERE uuid = ?', [String(100000000000000000n + BigInt(index)), player.uuid]);
  }
  console.log(`login_records: ${count}; players sampled: ${players.length}`);

  if (db.options.type === 'better-sqlite3') {
    const cutoff = '2018-03-19 15:00:00.000';
    for (const [label, sql, params] of [
      ['uuid', 'SELECT * FROM players WHERE last_login >= ? AND uuid = ? LIMIT 1', [cutoff, players[0].uuid]],
      ['chatid', 'SELECT * FROM players WHERE last_login >= ? AND chatid = ? LIMIT 1', [cutoff, '100000000000000000']],
      ['mcid', 'SELECT * FROM players WHERE last_login >= ? AND mcid_key = ? ORDER BY last_login DESC LIMIT 1', [cutoff, players[0].mcid.toLowerCase()]],
      ['first login since cutoff', 'SELECT * FROM login_records WHERE player_uuid = ? AND logged_in_at >= ? ORDER BY logged_in_at ASC LIMIT 1', [players[0].uuid, cutoff]],
    ]) {
      const plan = await db.query(`EXPLAIN QUERY PLAN ${sql}`, params);
      console.log(`plan ${label}: ${plan.map((row) => row.detail).join(' | ')}`);
    }
  }

  const kinds = {
    uuid: (player) => `/users/${player.uuid}`,
    mcid: (player) => `/users?mcid=${encodeURIComponent(player.mcid)}`,
    chatid: (_player, index) => `/users/${String(100000000000000000n + BigInt(index))}`,
  };
  for (const [kind, path] of Object.entries(kinds)) {
    const times = [];
    for (let i = 0; i < requests; i += 1) {
      const index = (i * 7919) % players.length;
      const started = process.hrtime.bigint();
      const response = await fetch(base + path(players[index], index));
      await response.text();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (response.status !== 200) {
        throw new Error(`${kind} lookup answered ${response.status}`);
      }
    }
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
    const mean = (times.reduce((sum, t) => sum + t, 0) / times.length).toFixed(2);
    console.log(`${kind.padEnd(6)} ${requests} sequential requests: mean ${mean} ms, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms`);
  }
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
