// The memory settings the container image runs the server with: the final stage's
// `ENV MALLOC_*=…` and `ENV NODE_OPTIONS=…` of the Dockerfile (docs/reliability.md, "Memory").
// The lifetime suite and the benchmark start the server with them, so what they measure is what ships.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

function imageMemoryEnv() {
  const dockerfile = readFileSync(join(__dirname, '..', 'Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const settings = {};
  for (const [, name, value] of finalStage.matchAll(/^ENV\s+(MALLOC_\w+|NODE_OPTIONS)=(\S+)\s*$/gm)) {
    settings[name] = value;
  }
  if (!settings.MALLOC_MMAP_THRESHOLD_ || !settings.NODE_OPTIONS) {
    throw new Error('the Dockerfile no longer sets MALLOC_MMAP_THRESHOLD_ and NODE_OPTIONS in its final stage');
  }
  return settings;
}

module.exports = { imageMemoryEnv };
