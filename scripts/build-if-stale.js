#!/usr/bin/env node
// Builds the service and the console only when a source is newer than the build, so that
// `npm test` (its pretest) and CI's later stages do not rebuild what the build stage just made.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

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

const sources = ['src', 'console', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', '.swcrc'].map((name) => join(root, name));
const outputs = [join(root, 'dist', 'main.js'), join(root, 'dist', 'cli', 'main.js'), join(root, 'console', 'dist', 'index.html')];
if (process.env.FORCE_BUILD !== '1' && oldest(outputs) >= Math.max(...sources.map(newest))) {
  process.stderr.write('build: dist/ is fresh, not rebuilt\n');
  process.exit(0);
}
const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(build.status ?? 1);
