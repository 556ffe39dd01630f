import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/server-process';

/**
 * `npm run test:docs` (scripts/test-docs.js) against a small document of its own: a block whose
 * output differs and a block that fails must fail the run, variables must carry over between
 * blocks, `…` must match what changes, the server must be the real one, every page runs twice,
 * and a page that does not stop at its first failing step is refused (docs/README.md,
 * "Runnable walk-throughs").
 */
// The docs test always runs its own server on SQLite: nothing to add on MariaDB.
const describeOnSqlite = process.env.TEST_DATABASE === 'mysql' ? describe.skip : describe;

describeOnSqlite('the docs test (scripts/test-docs.js)', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'docs-test-spec-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function run(markdown: string): Promise<{ code: number | null; stdout: string }> {
    const file = join(dir, `doc-${Date.now()}.md`);
    writeFileSync(file, markdown);
    return new Promise((resolve) => {
      execFile(process.execPath, [join(ROOT, 'scripts', 'test-docs.js'), file], { cwd: ROOT, timeout: 120_000 }, (error, stdout) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout });
      });
    });
  }

  const fence = '```';

  it('passes matching blocks and fails a differing output and a failing command', async () => {
    const markdown = [
      '# A walk-through',
      `${fence}sh runnable`,
      'set -euo pipefail',
      'BASE=${BASE:-http://127.0.0.1:3000}',
      'curl -s $BASE/health/ready',
      'GREETING=hello',
      fence,
      '',
      `${fence}text output`,
      '{"status":true,"code":200,"version":"…","database":"up"}',
      fence,
      '',
      `${fence}sh runnable`,
      'echo "$GREETING from the same session"',
      'printf "one\\ntwo\\nthree\\nlast\\n"',
      fence,
      '',
      `${fence}text output`,
      'hello from the same session',
      '…',
      'last',
      fence,
      '',
      `${fence}sh runnable`,
      'curl -s -o /dev/null -w \'{"code":%{http_code}}\\n\' $BASE/cities/999',
      fence,
      '',
      `${fence}text output`,
      '{"code":200}',
      fence,
      '',
      `${fence}sh runnable`,
      'false',
      fence,
      '',
      `${fence}sh`,
      'exit 3   # not runnable: never run',
      fence,
    ].join('\n');
    const { code, stdout } = await run(markdown);
    const lines = stdout.trim().split('\n');
    // Each page runs twice against the same server: both runs report every block.
    expect(lines.filter((line) => /^ok {3}.*\(run [12] of 2, block [12] of 4\)/.test(line))).toHaveLength(4);
    expect(stdout).toMatch(/FAIL .*\(run 1 of 2, block 3 of 4\): output differs/);
    expect(stdout).toContain('{"code":404}');
    expect(stdout).toMatch(/FAIL .*\(run 2 of 2, block 4 of 4\): a step failed and ended the shell/);
    expect(lines[lines.length - 1]).toBe('4 passed, 4 failed');
    expect(code).toBe(1);
  });

  it('exits 0 when every block passes', async () => {
    const markdown = [`${fence}sh runnable`, 'set -euo pipefail', 'echo "listening on ${BASE#http://}" | sed "s/[0-9]*$/PORT/"', fence, `${fence}text output`, 'listening on 127.0.0.1:PORT', fence].join('\n');
    const { code, stdout } = await run(markdown);
    expect(stdout.trim().split('\n').pop()).toBe('2 passed, 0 failed');
    expect(code).toBe(0);
  });

  it('refuses a page whose first block does not stop at a failing step', async () => {
    const markdown = [`${fence}sh runnable`, 'echo hello', fence].join('\n');
    const { code, stdout } = await run(markdown);
    expect(stdout).toContain('does not begin with `set -euo pipefail`');
    expect(stdout.trim().split('\n').pop()).toBe('0 passed, 1 failed');
    expect(code).toBe(1);
  });
});
