#!/usr/bin/env node
// Builds only what is older than its sources: the server (dist/, from src/) and the console
// (console/dist/, from console/ and the few src/ files it imports), each on its own. `npm test`
// (pretest) and `npm start` (prestart) run it, so a start with a fresh build takes seconds and a
// change to the server alone does not rebuild the console (docs/deployment.md, One process on SQLite).
// FORCE_BUILD=1 builds both.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');

const root = join(__dirname, '..');

function newest(path) {
  if (!existsSync(path)) {
    return 0;
  }
  const stat = statSync(path);
  if (!stat.isDirectory()) {
    return stat.mtimeMs;
  }
  // Files only: a folder's own time changes when the build recreates console/dist inside it.
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') {
      continue;
    }
    latest = Math.max(latest, newest(join(path, entry.name)));
  }
  return latest;
}

function oldest(outputs) {
  return Math.min(...outputs.map((output) => (existsSync(output) ? statSync(output).mtimeMs : 0)));
}

/**
 * The server files the console is built from: those its tsconfig includes from ../src (vue-tsc
 * checks them) and what they import in turn, relative imports only.
 */
function consoleServerFiles() {
  const found = new Set();
  const visit = (file) => {
    if (found.has(file) || !existsSync(file)) {
      return;
    }
    found.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), match[1]);
      visit(target.endsWith('.ts') ? target : `${target}.ts`);
    }
  };
  const tsconfig = JSON.parse(readFileSync(join(root, 'console', 'tsconfig.json'), 'utf8'));
  for (const include of tsconfig.include ?? []) {
    if (include.startsWith('../src/')) {
      visit(resolve(root, 'console', include));
    }
  }
  return [...found];
}

const shared = ['package-lock.json'].map((name) => join(root, name));
const parts = [
  {
    name: 'server',
    sources: [...shared, ...['src', 'tsconfig.json', 'tsconfig.build.json', '.swcrc'].map((name) => join(root, name))],
    outputs: [join(root, 'dist', 'main.js'), join(root, 'dist', 'cli', 'main.js')],
    build: [process.execPath, [join(__dirname, 'build-server.js')]],
  },
  {
    name: 'console',
    sources: [...shared, join(root, 'console'), ...consoleServerFiles()],
    outputs: [join(root, 'console', 'dist', 'index.html')],
    build: ['npm', ['run', '--silent', 'build:console']],
  },
];

const force = process.env.FORCE_BUILD === '1';
for (const part of parts) {
  if (!force && oldest(part.outputs) >= Math.max(...part.sources.map(newest))) {
    process.stderr.write(`build: the ${part.name} build is fresh, not rebuilt\n`);
    continue;
  }
  process.stderr.write(`build: building the ${part.name}\n`);
  const [command, args] = part.build;
  const build = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    process.exit(build.status ?? 1);
  }
}
