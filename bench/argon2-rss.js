#!/usr/bin/env node
// node bench/argon2-rss.js — the resident memory that argon2 hashing leaves behind, with glibc's
// default (dynamic) mmap threshold and with MALLOC_MMAP_THRESHOLD_=131072 as the container image
// sets it (docs/reliability.md, "Lifetime"). Each hash takes a 19 MiB block in a libuv thread;
// after the first free, glibc raises its mmap threshold above that size and then keeps the blocks
// in the threads' heaps. Prints one line per setting: RSS before, after 40 hashes, after 1 s idle.
const { spawnSync } = require('node:child_process');

if (process.argv[2] === '--child') {
  const argon2 = require('argon2');
  const options = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };
  const rss = () => Math.round(process.memoryUsage().rss / 1048576);
  (async () => {
    const before = rss();
    for (let round = 0; round < 10; round += 1) {
      await Promise.all([1, 2, 3, 4].map((lane) => argon2.hash(`password-${round}-${lane}`, options)));
    }
    const after = rss();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    process.stdout.write(`RSS MiB: ${before} before, ${after} after 40 hashes, ${rss()} after 1 s idle\n`);
  })();
} else {
  for (const [label, extra] of [
    ['glibc default', {}],
    ['MALLOC_MMAP_THRESHOLD_=131072', { MALLOC_MMAP_THRESHOLD_: '131072' }],
  ]) {
    const env = { ...process.env, ...extra };
    if (!('MALLOC_MMAP_THRESHOLD_' in extra)) {
      delete env.MALLOC_MMAP_THRESHOLD_;
    }
    const run = spawnSync(process.execPath, [__filename, '--child'], { env, encoding: 'utf8' });
    process.stdout.write(`${label.padEnd(32)} ${run.stdout.trim() || run.stderr.trim()}\n`);
  }
}
