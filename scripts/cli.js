#!/usr/bin/env node
// Runs the compiled CLI, building it first when the sources are newer than the build.
// Build output goes to stderr so that `--json` keeps stdout to exactly one JSON object.
const { spawnSync } = require('node:child_process');
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'cli', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entryName of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entryName.name);
    newest = Math.max(newest, entryName.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(entry) || newestSource(join(root, 'src')) > statSync(entry).mtimeMs) {
  const build = spawnSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) {
    process.exit(build.status ?? 1);
  }
}
require(entry);
