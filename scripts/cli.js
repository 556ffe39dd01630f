#!/usr/bin/env node
// Runs the compiled CLI. In a source checkout it first rebuilds when the sources are newer than
// the build; in the container image (dist/, node_modules, package.json and scripts/ only, no
// src/) it runs the shipped build as is.
// Build output goes to stderr so that `--json` keeps stdout to exactly one JSON object.
const { spawnSync } = require('node:child_process');
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'cli', 'main.js');
const sources = join(root, 'src');

function newestSource(dir) {
  let newest = 0;
  for (const entryName of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entryName.name);
    newest = Math.max(newest, entryName.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (existsSync(sources)) {
  if (!existsSync(entry) || newestSource(sources) > statSync(entry).mtimeMs) {
    const build = spawnSync(process.execPath, [join(__dirname, 'build-server.js')], { cwd: root, stdio: ['ignore', 2, 2] });
    if (build.status !== 0) {
      process.exit(build.status ?? 1);
    }
  }
} else if (!existsSync(entry)) {
  process.stderr.write(`The command line is not built: ${entry} is missing (run \`npm run build\`).\n`);
  process.exit(1);
}
require(entry);
