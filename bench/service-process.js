'use strict';
// The built service (dist/main.js) in a process of its own, as the container image runs it (its
// memory settings; this environment's own MALLOC_* or NODE_OPTIONS win), for the benchmarks.
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { imageMemoryEnv } = require('../scripts/image-memory-env');

const root = join(__dirname, '..');

/** Starts the service with `env` over this environment and resolves once /health/ready answers 200. */
function startService(env, { nodeFlags = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, join(root, 'dist', 'main.js')], { env: { ...imageMemoryEnv(), ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => reject(new Error(`service exited (${code}): ${stderr}`)));
    const base = `http://127.0.0.1:${env.PORT}`;
    const started = Date.now();
    const poll = async () => {
      try {
        if ((await fetch(`${base}/health/ready`)).ok) {
          resolve({ child, base });
          return;
        }
      } catch {
        // not up yet
      }
      if (Date.now() - started > 60_000) {
        child.kill('SIGKILL');
        reject(new Error('service did not become ready'));
        return;
      }
      setTimeout(poll, 200);
    };
    void poll();
  });
}

/** Stops it the way an operator does (SIGINT: a graceful shutdown) and resolves when it has exited. */
function stopService(service) {
  return new Promise((resolve) => {
    service.child.removeAllListeners('exit');
    service.child.once('exit', () => resolve());
    service.child.kill('SIGINT');
  });
}

module.exports = { startService, stopService };
