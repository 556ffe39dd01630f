// One config, three projects: unit specs beside the code, e2e specs in test/ (real HTTP, real database),
// and browser specs in test/browser (the console in Debian's Chromium, driven by playwright-core).
const { existsSync } = require('node:fs');

// NestJS 12 (and a few of its dependencies) ship ES modules only. The built service loads them with
// Node's require(esm) (Node 20.19+); Jest's own module loader does that only from Node 24.9, so
// here they are compiled to CommonJS like the project's own files.
const esmOnly = ['@nestjs', 'file-type', 'lru-cache', '@standard-schema', 'uid', 'get-port'];
const common = {
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest'] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
};

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const selected = (project) => process.argv.some((argument, index) => argument === project && /selectProjects/.test(process.argv[index - 1] ?? ''));
const browserSelected = selected('browser');
// `npm test` runs the browser suite when Chromium is installed and says so plainly when it is not;
// `npm run test:browser` always runs it (and fails clearly without Chromium).
const runBrowser = existsSync(chromium) || browserSelected;
if (!runBrowser) {
  process.stderr.write(`\nBrowser tests SKIPPED: no Chromium at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH).\n\n`);
}

module.exports = {
  testTimeout: 60000,
  // No forceExit: a run that does not end by itself has left something open, and that is a bug to
  // find (docs/testing.md, "Open handles").
  projects: [
    { ...common, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    { ...common, displayName: 'e2e', rootDir: '.', testRegex: 'test/.*\\.e2e-spec\\.ts$', slowTestThreshold: 30 },
    // The fault suite (a TCP proxy between the service and each dependency) runs once, on its own:
    // `npm run test:faults`. It is left out of `npm test` so that CI does not run it twice.
    ...(selected('faults') ? [{ ...common, displayName: 'faults', rootDir: '.', testRegex: 'test/faults/.*\\.fault-spec\\.ts$', slowTestThreshold: 60 }] : []),
    ...(runBrowser ? [{ ...common, displayName: 'browser', rootDir: '.', testRegex: 'test/browser/.*\\.browser-spec\\.ts$', slowTestThreshold: 60 }] : []),
  ],
};
