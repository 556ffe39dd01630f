#!/usr/bin/env node
// Lints an OpenAPI document with Redocly's `recommended` rules and prints the problems as JSON.
//   curl -s http://127.0.0.1:3000/docs/openapi.json | node scripts/openapi-lint.js
// The OpenAPI e2e test runs it in a child process: @redocly/openapi-core is an ES module the Jest
// runtime cannot load. Exit code 0 whatever the findings; the caller decides.
'use strict';

async function main() {
  const { createConfig, lintFromString } = await import('@redocly/openapi-core');
  const chunks = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk);
  }
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: Buffer.concat(chunks).toString('utf8'), absoluteRef: 'openapi.json', config });
  process.stdout.write(
    JSON.stringify(
      problems.map((problem) => ({
        rule: problem.ruleId,
        severity: problem.severity,
        message: problem.message,
        where: problem.location.map((location) => location.pointer).join(' '),
      })),
    ),
  );
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
