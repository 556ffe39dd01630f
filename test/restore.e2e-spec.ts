import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordEvent } from './support/events';
import { runCli } from './support/run-cli';
import { TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase, testDatabaseKind } from './support/test-database';

interface FeedPage {
  data: Array<{ id: number; type: string; data: { city: { id: number } } }>;
  next: number;
}

/**
 * `restore --from FILE` on the suite's database: a consumer that saw event 10 and then meets a
 * restore of an earlier backup still gets the events written after the restore.
 */
describe(`restore from a backup (e2e, ${testDatabaseKind})`, () => {
  let dir: string;
  let database: TestDatabase;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'community-restore-'));
    database = await createTestDatabase();
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  /** A backup the way the docs say: the `backup` command on SQLite, the dump command it prints on MySQL. */
  async function backup(out: string): Promise<void> {
    const result = await runCli(['backup', '--out', out], { DATABASE_URL: database.url });
    if (testDatabaseKind === 'sqlite') {
      expect(result.code).toBe(0);
      return;
    }
    const command = /^\s+(mariadb-dump .*)$/m.exec(result.stderr)?.[1];
    expect(command).toBeDefined();
    execFileSync('sh', ['-c', command!]);
  }

  it('refuses while the server runs; then restores, and event ids continue past every id handed out before', async () => {
    const app = await TestApp.start({}, { database });
    const operator = { 'x-api-key': await app.createApiKey(['operator']) };
    const city = (i: number): Promise<number> => recordEvent(app, 'city.changed', { request: null, city: { id: i } });
    const kept: number[] = [];
    for (let i = 1; i <= 5; i += 1) {
      kept.push(await city(i));
    }
    const file = join(dir, testDatabaseKind === 'sqlite' ? 'backup.sqlite' : 'backup.sql');
    await backup(file);
    const lost: number[] = [];
    for (let i = 6; i <= 10; i += 1) {
      lost.push(await city(i));
    }
    // A consumer has read up to the tenth event.
    const seen = (await app.get<FeedPage>('/events', { query: { after: 0, limit: 500 }, headers: operator })).body;
    expect(seen.data.map((event) => event.id)).toEqual([...kept, ...lost]);
    const cursor = seen.next;

    const refused = await runCli(['restore', '--from', file, '--json'], { DATABASE_URL: database.url });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ error: expect.stringMatching(/in use.*stop/) });
    expect((await app.get<FeedPage>('/events', { query: { after: 0, limit: 500 }, headers: operator })).body.data).toHaveLength(10);
    await app.stop({ keepDatabase: true });

    const startedAt = Date.now();
    const restored = await runCli(['restore', '--from', file, '--json'], { DATABASE_URL: database.url });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const result = JSON.parse(restored.stdout) as { restored: string; lastEventId: number; previous?: string };
    expect(result.lastEventId).toBeGreaterThanOrEqual(startedAt);
    if (testDatabaseKind === 'sqlite') {
      // The replaced database is kept beside it.
      expect(existsSync(result.previous!)).toBe(true);
    }

    const again = await TestApp.start({}, { database });
    try {
      // The backup's events are back, the later ones are gone …
      const all = (await again.get<FeedPage>('/events', { query: { after: 0, limit: 500 }, headers: operator })).body;
      expect(all.data.map((event) => event.id)).toEqual(kept);
      // … and the consumer holding cursor 10 gets the first event written after the restore.
      const next = await recordEvent(again, 'city.changed', { request: null, city: { id: 11 } });
      expect(next).toBeGreaterThan(cursor);
      const page = (await again.get<FeedPage>('/events', { query: { after: cursor }, headers: operator })).body;
      expect(page.data.map((event) => [event.id, event.data.city.id])).toEqual([[next, 11]]);
    } finally {
      await again.stop({ keepDatabase: true });
    }
  }, 240_000);

  it('refuses a file that is not a backup, and a missing one, and leaves the database alone', async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not a database at all\n'.repeat(100));
    for (const from of [junk, join(dir, 'missing.sqlite')]) {
      const result = await runCli(['restore', '--from', from, '--json'], { DATABASE_URL: database.url });
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual({ error: expect.stringMatching(/^Restore refused: .*(not a|does not exist)/) });
    }
    const app = await TestApp.start({}, { database });
    try {
      const operator = { 'x-api-key': await app.createApiKey(['operator']) };
      expect((await app.get<FeedPage>('/events', { query: { after: 0 }, headers: operator })).body.data).toHaveLength(6);
    } finally {
      await app.stop({ keepDatabase: true });
    }
  }, 180_000);
});
