#!/usr/bin/env node
// Compiles the service (src/, without its unit specs) to dist/ with swc and the project's .swcrc,
// or to the folder given as the first argument. The one place the server build is spelt out:
// `npm run build`, the CLI's rebuild when sources are newer, and the tests that lay out the image use it.
const { spawnSync } = require('node:child_process');
const { rmSync } = require('node:fs');
const { join, resolve } = require('node:path');

const root = join(__dirname, '..');
const outDir = resolve(root, process.argv[2] ?? 'dist');
rmSync(outDir, { recursive: true, force: true });
const swc = spawnSync(
  process.execPath,
  [require.resolve('@swc/cli/bin/swc.js'), 'src', '--out-dir', outDir, '--strip-leading-paths', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts', '--quiet'],
  { cwd: root, stdio: ['ignore', 2, 2] },
);
process.exit(swc.status ?? 1);
