'use strict';
// The one free-port helper of the scripts and the tests (test/support/server-process.ts uses it
// too). get-port asks the system for a free port on loopback and remembers the ports it handed
// out in this process for a while, so two callers in one run are never given the same port.
// get-port ships ES modules only; Node 20.19 loads it with require(), and Jest compiles it
// (jest.config.js, `esmOnly`).
const { default: getPort } = require('get-port');

/** A TCP port that is free on 127.0.0.1 now. */
function freePort() {
  return getPort({ host: '127.0.0.1' });
}

module.exports = { freePort };
