#!/usr/bin/env node
// Runs the walk-throughs of the documentation as written (npm run test:docs).
//
// Every fenced block with the info string `sh runnable` in README.md and docs/*.md is run, in
// order, in one bash session per document (so variables carry over from block to block), against a
// fresh server started from dist/ on a fresh SQLite database. Each document is then run a second
// time, in a new session against the same server and database: a reader follows a walk-through
// more than once, so none may depend on a fresh database (taken names, per-owner city limits,
// overlapping regions, ids sent twice). When the next fenced block is a
// `text output` block, the run's stdout must match it: `…` inside a line matches any text on that
// line, a line holding only `…` matches any number of lines. Without an output block, the block must
// exit 0. The conventions are written for readers at the top of docs/README.md.
//
// A document may ask for more with an HTML comment (invisible on GitHub):
//   <!-- test-docs: env NAME=value NAME=value -->   extra server environment
//   <!-- test-docs: fake-banlist -->                 a loopback ban-list upstream (BANLIST_SOURCE_URL)
//
// DOCS_SHOW_OUTPUT=1 prints every block's output (to write a new `text output` block);
// DOCS_SHOW_SERVER_LOG=1 prints the server's log after a failure.
//
// DOCS_RUNS=1 runs each document once (while writing one); the default is 2. DOCS_JOBS=N runs N
// documents side by side, each on its own server (default: 2, or 1 on one core); with more than
// one, a document's lines are printed when it ends.
//
// Usage: node scripts/test-docs.js [--one-server] [FILE.md …]   (default: README.md and every docs/*.md)
// --one-server runs every document against one server and database, in turn, as a reader would.
// Prints one line per block, then `N passed, N failed`; exits 1 on any failure.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } = require('node:fs');
const { availableParallelism, tmpdir } = require('node:os');
const { join, relative, resolve } = require('node:path');
const { freePort } = require('./free-port');

const ROOT = join(__dirname, '..');
const BLOCK_TIMEOUT_MS = Number(process.env.DOCS_BLOCK_TIMEOUT_MS ?? 120_000);
/** A variable the test's session has and a reader's shell may lack (BASE and DATABASE_URL have defaults a page sets). */
const HARNESS_ONLY = /\$\{?TMPDIR\b/;
/** Documents run side by side without --one-server (DOCS_JOBS; 1 prints each block as it ends). */
const JOBS = Math.max(1, Number(process.env.DOCS_JOBS ?? Math.min(2, availableParallelism())));
/** How many times each document runs against its server: the second run proves it can be rerun. */
const RUNS = Number(process.env.DOCS_RUNS ?? 2);

function parseDocument(text) {
  const lines = text.split('\n');
  const blocks = [];
  const options = { env: {}, fakeBanlist: false };
  for (const match of text.matchAll(/<!--\s*test-docs:\s*([\s\S]*?)-->/g)) {
    const words = match[1].trim().split(/\s+/);
    if (words[0] === 'env') {
      for (const pair of words.slice(1)) {
        const at = pair.indexOf('=');
        options.env[pair.slice(0, at)] = pair.slice(at + 1);
      }
    } else if (words[0] === 'fake-banlist') {
      options.fakeBanlist = true;
    } else {
      throw new Error(`unknown test-docs directive: ${match[0]}`);
    }
  }
  const fences = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i]);
    if (!open) {
      continue;
    }
    const [, indent, ticks, info] = open;
    const body = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^\\s*${ticks}\\s*$`).test(lines[j])) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
      j += 1;
    }
    fences.push({ info: info.trim(), line: i + 1, body: body.join('\n') });
    i = j;
  }
  fences.forEach((fence, index) => {
    if (fence.info !== 'sh runnable') {
      return;
    }
    const next = fences[index + 1];
    blocks.push({ line: fence.line, script: fence.body, expected: next && next.info === 'text output' ? next.body : null });
  });
  return { blocks, options };
}

/** Lines without trailing spaces, and without blank lines at either end. */
function normalise(text) {
  const lines = text.replace(/\r/g, '').split('\n').map((line) => line.replace(/\s+$/, ''));
  while (lines.length && lines[0] === '') {
    lines.shift();
  }
  while (lines.length && lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

function lineMatches(pattern, line) {
  if (!pattern.includes('…')) {
    return pattern === line;
  }
  const source = pattern.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 's').test(line);
}

function outputMatches(expectedText, actualText) {
  const expected = normalise(expectedText);
  const actual = normalise(actualText);
  const memo = new Map();
  const match = (i, j) => {
    const key = i * (actual.length + 1) + j;
    if (memo.has(key)) {
      return memo.get(key);
    }
    let result;
    if (i === expected.length) {
      result = j === actual.length;
    } else if (expected[i].trim() === '…') {
      result = match(i + 1, j) || (j < actual.length && match(i, j + 1));
    } else {
      result = j < actual.length && lineMatches(expected[i], actual[j]) && match(i + 1, j + 1);
    }
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

/**
 * The external ban-list service on loopback: one global ban of Notch, 404 (no record) for everyone
 * else. The same fake as the tests' and `cli banlist:fake-upstream` (src/banlist-sync/fake-upstream.ts),
 * from the build made before any server starts.
 */
async function startFakeBanlist() {
  const { FakeBanlist } = require(join(ROOT, 'dist', 'banlist-sync', 'fake-upstream.js'));
  const fake = new FakeBanlist().scriptDemo();
  return { url: await fake.start(), stop: () => fake.stop() };
}

function baseEnv() {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8', NO_COLOR: '1' };
  return env;
}

async function startServer(dir, options, fakes) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const databaseUrl = `sqlite:${join(dir, 'community.sqlite')}`;
  const env = {
    ...baseEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    ...(fakes.banlist ? { BANLIST_SOURCE_URL: fakes.banlist.url } : {}),
    ...options.env,
  };
  const output = [];
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.on('data', (chunk) => output.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk) => output.push(chunk.toString('utf8')));
  let ended = false;
  const exited = new Promise((resolve) => child.once('exit', () => ((ended = true), resolve())));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${base}/health/ready`).then((response) => response.status === 200, () => false);
    if (ok) {
      break;
    }
    if (ended || Date.now() > deadline) {
      throw new Error(`the server ${ended ? 'exited' : 'did not become ready'}:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    databaseUrl,
    output,
    async stop() {
      if (!ended) {
        process.kill(-child.pid, 'SIGTERM');
        const timer = setTimeout(() => !ended && process.kill(-child.pid, 'SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** One bash process for a whole document; each block is sourced so its variables stay. */
function startShell(dir, server) {
  const env = { ...baseEnv(), BASE: server.base, DATABASE_URL: server.databaseUrl, TMPDIR: dir };
  const child = spawn('bash', ['--noprofile', '--norc'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let buffer = '';
  let waiter = null;
  child.stdout.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    const done = /__DOCS_BLOCK_DONE__ (\d+)\n/.exec(buffer);
    if (done && waiter) {
      buffer = buffer.slice(done.index + done[0].length);
      const resolve = waiter;
      waiter = null;
      resolve(Number(done[1]));
    }
  });
  child.stderr.on('data', () => undefined);
  let ended = false;
  child.once('exit', () => {
    ended = true;
    if (waiter) {
      waiter(null);
    }
  });
  let count = 0;
  return {
    async run(script) {
      count += 1;
      const file = join(dir, `block-${count}.sh`);
      const out = join(dir, `block-${count}.out`);
      const err = join(dir, `block-${count}.err`);
      writeFileSync(file, `${script}\n`);
      if (ended) {
        return { status: null, stdout: '', stderr: 'the shell of this document has ended (a block ran exit?)' };
      }
      const status = await new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiter = null;
          resolve('timeout');
        }, BLOCK_TIMEOUT_MS);
        waiter = (value) => {
          clearTimeout(timer);
          resolve(value);
        };
        child.stdin.write(`source ${JSON.stringify(file)} < /dev/null > ${JSON.stringify(out)} 2> ${JSON.stringify(err)}; echo "__DOCS_BLOCK_DONE__ $?"\n`);
      });
      const read = (path) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
      return { status, stdout: read(out), stderr: read(err) };
    },
    stop() {
      // The whole process group: background helpers a block started (a webhook receiver) end too.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}

/** The fakes and the server of one run: per document, or one for all (--one-server). */
async function startEnvironment(dir, options) {
  const fakes = {};
  if (options.fakeBanlist) {
    fakes.banlist = await startFakeBanlist();
  }
  try {
    const server = await startServer(dir, options, fakes);
    return {
      server,
      async stop(showLog, out = (text) => process.stdout.write(text)) {
        await server.stop();
        if (showLog && process.env.DOCS_SHOW_SERVER_LOG === '1') {
          out(server.output.join(''));
        }
        await fakes.banlist?.stop();
      },
    };
  } catch (error) {
    await fakes.banlist?.stop();
    throw error;
  }
}

/**
 * One document, each run in a new session against one server. `out` prints: straight to stdout,
 * or into a buffer when documents run side by side (printed whole when the document ends).
 */
async function runDocument(path, counts, shared, out = (text) => process.stdout.write(text)) {
  const name = relative(ROOT, path);
  const { blocks, options } = parseDocument(readFileSync(path, 'utf8'));
  if (blocks.length === 0) {
    return;
  }
  if (!/^set -euo pipefail\b/m.test(blocks[0].script)) {
    // Without it a failing step goes on with empty values and prints `null` or 401 further down.
    counts.failed += 1;
    out(`FAIL ${name}: its first runnable block does not begin with \`set -euo pipefail\` (docs/README.md, the conventions)\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'test-docs-'));
  const mine = { passed: 0, failed: 0 };
  let environment = shared;
  let shell;
  try {
    environment ??= await startEnvironment(dir, options);
    for (let run = 1; run <= RUNS; run += 1) {
      // A new session each run (no variable carries over), the same server and database.
      shell?.stop();
      shell = startShell(mkdtempSync(join(dir, `run-${run}-`)), environment.server);
      await runBlocks(name, blocks, shell, mine, RUNS > 1 ? `run ${run} of ${RUNS}, ` : '', out);
    }
  } catch (error) {
    mine.failed += 1;
    out(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    shell?.stop();
    if (environment && environment !== shared) {
      await environment.stop(mine.failed > 0, out);
    }
    rmSync(dir, { recursive: true, force: true });
    counts.passed += mine.passed;
    counts.failed += mine.failed;
  }
}

/** The blocks of one document, in order, in one session; one line per block. */
async function runBlocks(name, blocks, shell, counts, runLabel, out) {
  let broken = false;
  for (const [index, block] of blocks.entries()) {
    const label = `${name}:${block.line} (${runLabel}block ${index + 1} of ${blocks.length})`;
    if (broken) {
      counts.failed += 1;
      out(`FAIL ${label}: not run, the shell ended before it\n`);
      continue;
    }
    const started = Date.now();
    const result = await shell.run(block.script);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    let problem = null;
    if (HARNESS_ONLY.test(block.script)) {
      problem = 'uses $TMPDIR, which only this test sets (a reader has none): make a folder with mktemp -d';
    } else if (result.status === 'timeout') {
      problem = `no end within ${BLOCK_TIMEOUT_MS / 1000} s`;
      broken = true;
    } else if (result.status === null) {
      problem = 'a step failed and ended the shell (set -e: its message is on stderr below)';
      broken = true;
    } else if (block.expected !== null && !outputMatches(block.expected, result.stdout)) {
      problem = 'output differs';
    } else if (block.expected === null && result.status !== 0) {
      problem = `exit status ${result.status}`;
    }
    if (problem) {
      counts.failed += 1;
      out(`FAIL ${label}: ${problem} (${seconds} s)\n`);
      if (block.expected !== null) {
        out(`    expected:\n${indent(normalise(block.expected).join('\n'))}\n`);
      }
      out(`    stdout:\n${indent(normalise(result.stdout).join('\n'))}\n`);
      if (result.stderr.trim()) {
        out(`    stderr:\n${indent(normalise(result.stderr).join('\n'))}\n`);
      }
    } else {
      counts.passed += 1;
      out(`ok   ${label} (${seconds} s)\n`);
      if (process.env.DOCS_SHOW_OUTPUT === '1') {
        out(`${indent(normalise(result.stdout).join('\n'))}\n`);
      }
    }
  }
}

async function main() {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.js')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    process.exit(build.status ?? 1);
  }
  const args = process.argv.slice(2);
  const oneServer = args.includes('--one-server');
  const named = args.filter((arg) => arg !== '--one-server');
  const files = named.length
    ? named.map((file) => resolve(process.cwd(), file))
    : [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).sort().map((file) => join(ROOT, 'docs', file))];
  // Say plainly which tool is missing rather than fail block by block (CI installs curl and jq).
  const scripts = files.map((file) => parseDocument(readFileSync(file, 'utf8')).blocks.map((block) => block.script).join('\n')).join('\n');
  for (const tool of ['curl', 'jq', 'openssl']) {
    if (new RegExp(`\\b${tool}\\b`).test(scripts) && spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      process.stderr.write(`test-docs: the walk-throughs need ${tool} (apt-get install -y ${tool})\n`);
      process.exit(1);
    }
  }
  const counts = { passed: 0, failed: 0 };
  if (oneServer) {
    // What a reader does: every document in turn against one server and one database, so that
    // a walk-through cannot depend on a fresh database (ids, key names, taken city names).
    const options = { env: {}, fakeBanlist: false };
    for (const file of files) {
      const parsed = parseDocument(readFileSync(file, 'utf8')).options;
      Object.assign(options.env, parsed.env);
      options.fakeBanlist ||= parsed.fakeBanlist;
    }
    const dir = mkdtempSync(join(tmpdir(), 'test-docs-'));
    const shared = await startEnvironment(dir, options);
    try {
      for (const file of files) {
        await runDocument(file, counts, shared);
      }
    } finally {
      await shared.stop(counts.failed > 0);
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    // Documents side by side (each on its own server and database): most of a block's time is
    // a command line starting, so two at once take about half the time on two cores.
    const queue = [...files];
    const worker = async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        if (JOBS === 1) {
          await runDocument(file, counts);
        } else {
          const lines = [];
          await runDocument(file, counts, undefined, (text) => lines.push(text));
          process.stdout.write(lines.join(''));
        }
      }
    };
    await Promise.all(Array.from({ length: JOBS }, worker));
  }
  process.stdout.write(`${counts.passed} passed, ${counts.failed} failed\n`);
  process.exit(counts.failed || counts.passed === 0 ? 1 : 0);
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

module.exports = { parseDocument, outputMatches };
