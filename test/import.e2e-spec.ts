import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newPlayer, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

interface CliRun {
  code: number;
  json: Record<string, unknown>;
  stderr: string;
}

describe('import:logins (e2e, the real CLI)', () => {
  let database: TestDatabase;
  let dir: string;

  const cli = (...args: string[]): Promise<CliRun> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [join(__dirname, '..', 'scripts', 'cli.js'), ...args, '--json'],
        { env: { ...process.env, DATABASE_URL: database.url, DATA_CUTOFF: '2018-03-20T00:00:00+09:00', NODE_ENV: 'test', LOG_LEVEL: 'error' }, timeout: 120_000 },
        (error, stdout, stderr) => {
          const lines = stdout.trim().split('\n');
          expect(lines).toHaveLength(1);
          resolve({ code: error ? Number(error.code ?? 1) : 0, json: JSON.parse(lines[0] ?? '{}') as Record<string, unknown>, stderr });
        },
      );
    });

  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'import-test-'));
  });

  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const alice = newPlayer();
  const bob = newPlayer();

  it('imports a CSV export: accepted, skipped before the cutoff, invalid lines with numbers', async () => {
    const csv = [
      'uuid,mcid,loggedInAt,permission',
      `${alice.uuid},OldAlice,2018-03-19T15:00:00.000Z,default`,
      `${alice.uuid},${alice.mcid},2020-05-01T12:00:00+09:00,vip`,
      `${alice.uuid},Ancient,2018-02-17T00:00:00Z,default`,
      `${bob.uuid},${bob.mcid},2019-07-01T00:00:00Z,`,
      `not-a-uuid,${bob.mcid},2019-07-01T00:00:00Z,`,
      `${bob.uuid},${bob.mcid},2019-07-01 00:00:00,`,
      '',
    ].join('\n');
    const run = await cli('import:logins', '--file', file('history.csv', csv));
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({
      format: 'csv',
      rows: 6,
      accepted: 3,
      skipped: 1,
      beforeCutoff: 1,
      invalidCount: 2,
      invalid: [
        { line: 6, reason: expect.stringContaining('uuid') },
        { line: 7, reason: expect.stringContaining('loggedInAt') },
      ],
      invalidTruncated: false,
      seconds: expect.any(Number),
    });

    const again = await cli('import:logins', '--file', join(dir, 'history.csv'));
    expect(again.json).toMatchObject({ accepted: 0, skipped: 4, beforeCutoff: 1 });
  });

  it('imports JSON Lines in small batches and merges with what is stored', async () => {
    const jsonl = [
      JSON.stringify({ uuid: alice.uuid.toUpperCase(), mcid: 'AliceLatest', loggedInAt: '2021-01-01T00:00:00Z', permission: 'admin' }),
      JSON.stringify({ uuid: bob.uuid, mcid: bob.mcid, loggedInAt: '2019-07-01T00:00:00Z' }),
      '{broken',
      JSON.stringify({ uuid: bob.uuid, mcid: bob.mcid, loggedInAt: Date.parse('2019-08-01T00:00:00Z') }),
    ].join('\n');
    const run = await cli('import:logins', '--file', file('history.jsonl', jsonl), '--batch-size', '1');
    expect(run.json).toMatchObject({ format: 'jsonl', rows: 4, accepted: 2, skipped: 1, invalidCount: 1, invalid: [{ line: 3, reason: 'not valid JSON' }], batches: 3 });
  });

  it('makes the imported players visible to the service', async () => {
    const app = await TestApp.start({}, { database });
    try {
      expect((await app.get(`/users/${alice.uuid}`)).body.data).toEqual({
        uuid: alice.uuid,
        mcid: 'AliceLatest',
        chatid: null,
        permission: 'admin',
        firstLogin: '2018-03-19T15:00:00.000Z',
        lastLogin: '2021-01-01T00:00:00.000Z',
      });
      expect((await app.get('/users', { query: { mcid: bob.mcid } })).body.data).toMatchObject({ uuid: bob.uuid, permission: null, lastLogin: '2019-08-01T00:00:00.000Z' });
      expect((await app.get('/users/OldAlice')).status).toBe(404);
    } finally {
      await app.stop({ keepDatabase: true });
    }
  });

  it('reports a time no datetime column holds on both databases as an invalid line, and imports the rest', async () => {
    const carol = newPlayer();
    const jsonl = [
      JSON.stringify({ uuid: carol.uuid, mcid: carol.mcid, loggedInAt: '9999-12-31T23:00:00-05:00' }),
      JSON.stringify({ uuid: carol.uuid, mcid: carol.mcid, loggedInAt: 8.64e15 }),
      JSON.stringify({ uuid: carol.uuid, mcid: carol.mcid, loggedInAt: '9999-12-31T23:59:59.999Z' }),
    ].join('\n');
    const run = await cli('import:logins', '--file', file('far-future.jsonl', jsonl));
    const reason = 'loggedInAt must be from 1000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (UTC)';
    expect(run.json).toMatchObject({ rows: 3, accepted: 1, invalidCount: 2, invalid: [{ line: 1, reason }, { line: 2, reason }] });
  });

  it('caps the list of invalid lines', async () => {
    const lines = ['uuid,mcid,loggedInAt', ...Array.from({ length: 150 }, () => 'x,y,z')];
    const run = await cli('import:logins', '--file', file('bad.csv', lines.join('\n')));
    expect(run.json).toMatchObject({ invalidCount: 150, invalidTruncated: true, accepted: 0 });
    expect(run.json.invalid).toHaveLength(100);
  });

  it('refuses (exit 2) with one JSON error object for an unreadable file, a wrong header or an unknown format', async () => {
    const missing = await cli('import:logins', '--file', join(dir, 'nope.csv'));
    expect(missing).toMatchObject({ code: 2, json: { error: expect.stringContaining('Cannot read') } });
    const header = await cli('import:logins', '--file', file('header.csv', `id,name\n${alice.uuid},x\n`));
    expect(header).toMatchObject({ code: 2, json: { error: expect.stringContaining('header') } });
    const format = await cli('import:logins', '--file', file('history.txt', 'x'));
    expect(format).toMatchObject({ code: 2, json: { error: expect.stringContaining('--format') } });
  });
});
