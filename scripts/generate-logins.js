#!/usr/bin/env node
// Writes a synthetic login export for import and lookup benchmarks (not for tests; never commit the output).
//   node scripts/generate-logins.js --rows 1000000 --players 50000 --out /tmp/logins-1m.csv [--format csv|jsonl]
// Rows are in time order from 2018-03-20 on; each names a random player (deterministic seed),
// about 1 in 20 logins carries a new game id, so names change over time.
const { createWriteStream } = require('node:fs');

function arg(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const rows = Number(arg('rows', '1000000'));
const players = Number(arg('players', '50000'));
const out = arg('out', '/tmp/logins.csv');
const format = arg('format', out.endsWith('.jsonl') ? 'jsonl' : 'csv');

let seed = 42;
function random() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

function uuidOf(index) {
  const hex = index.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

const names = Array.from({ length: players }, (_, index) => `player_${index}`);
const start = Date.parse('2018-03-19T15:00:00.000Z');
const step = Math.floor((Date.parse('2026-01-01T00:00:00Z') - start) / rows);
const stream = createWriteStream(out);
if (format === 'csv') {
  stream.write('uuid,mcid,loggedInAt,permission\n');
}

let written = 0;
function writeSome() {
  let ok = true;
  while (written < rows && ok) {
    const player = Math.floor(random() * players);
    if (random() < 0.05) {
      names[player] = `p${player}_${written.toString(36)}`.slice(0, 16);
    }
    const at = new Date(start + written * step).toISOString();
    const permission = random() < 0.1 ? 'vip' : 'default';
    const line = format === 'csv' ? `${uuidOf(player)},${names[player]},${at},${permission}\n` : `${JSON.stringify({ uuid: uuidOf(player), mcid: names[player], loggedInAt: at, permission })}\n`;
    written += 1;
    ok = stream.write(line);
  }
  if (written < rows) {
    stream.once('drain', writeSome);
  } else {
    stream.end(() => process.stderr.write(`wrote ${rows} rows for ${players} players to ${out}\n`));
  }
}
writeSome();
