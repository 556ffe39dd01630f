#!/usr/bin/env node
// Times GET /users lookups by uuid, mcid and chat id. Needs a build (`npm run build`).
//   node scripts/bench-user-lookups.js [--target sqlite|mysql] [--players 10000] [--logins 100000] [--requests 2000]
//   node scripts/bench-user-lookups.js --database-url URL --yes-overwrite [--requests 2000]
// By default it builds a database of its own, as bench/players-site.js does: a temporary SQLite
// file, or a MariaDB database `bench_lookups_<pid>` (on BENCH_MYSQL_URL, default
// mysql://root@127.0.0.1:3306) dropped at the end, filled by `import:logins` from
// scripts/generate-logins.js. It never touches the configured database.
// It links chat ids to up to 10,000 players first (rewriting their `chatid`), then prints the query
// plans (SQLite) and per-kind latency through HTTP. To time an existing database instead (one you
// imported a real export into), name it with --database-url or DATABASE_URL; since that rewrites
// its players' chat ids, it is refused (exit 2, nothing changed) unless --yes-overwrite is given.
'use strict';

const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { arg, refuseUnlessOverwriteAllowed } = require('./scratch-database');

const ROOT = join(__dirname, '..');
const requests = Number(arg('requests', '2000'));
const target = arg('target', 'sqlite');
const players = Number(arg('players', '10000'));
const logins = Number(arg('logins', '100000'));
const ADMIN_URL = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');

/** The database to time: the one named (after the refusal check), or one made for this run. */
async function database() {
  const named = arg('database-url', process.env.DATABASE_URL);
  if (named !== undefined && named !== '') {
    refuseUnlessOverwriteAllowed(named, 'rewrites the chat ids of up to 10,000 of its players');
    return { url: named, drop: async () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-user-lookups-'));
  let url = `sqlite:${join(dir, 'lookups.sqlite')}`;
  let dropMysql = async () => {};
  if (target === 'mysql') {
    const { createConnection } = require('mysql2/promise');
    const name = `bench_lookups_${process.pid}`;
    const admin = await createConnection(ADMIN_URL);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    url = `${ADMIN_URL}/${name}`;
    dropMysql = async () => {
      const again = await createConnection(ADMIN_URL);
      await again.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await again.end();
    };
  }
  const drop = async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropMysql();
  };
  try {
    const file = join(dir, 'logins.csv');
    execFileSync(process.execPath, [join(__dirname, 'generate-logins.js'), '--rows', String(logins), '--players', String(players), '--out', file], { stdio: 'ignore' });
    const env = { ...process.env, DATABASE_URL: url, ENV_FILE: '', LOG_LEVEL: 'warn' };
    execFileSync(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'import:logins', '--file', file, '--json'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    await drop();
    throw error;
  }
  return { url, drop };
}

async function main() {
  const chosen = await database();
  const { loadConfig } = require(join(ROOT, 'dist', 'config', 'app-config'));
  const { createApp } = require(join(ROOT, 'dist', 'app.factory'));
  const { DataSource } = require('typeorm');
  try {
    const config = loadConfig({ ...process.env, DATABASE_URL: chosen.url, LOG_LEVEL: 'error', RATE_LIMIT_ENABLED: 'false', NODE_ENV: 'test' });
    const app = await createApp(config);
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      await time(`http://127.0.0.1:${app.getHttpServer().address().port}`, app.get(DataSource));
    } finally {
      await app.close();
    }
  } finally {
    await chosen.drop();
  }
}

async function time(base, db) {
  const [{ count }] = await db.query('SELECT COUNT(*) AS count FROM login_records');
  const players = await db.query('SELECT uuid, mcid FROM players WHERE last_login IS NOT NULL ORDER BY uuid LIMIT 10000');
  if (players.length === 0) {
    throw new Error('the database holds no player with a login: nothing to look up');
  }
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
}

main().catch((error) => {
  if (error && error.refused) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
