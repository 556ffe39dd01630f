import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { square } from './support/cities';
import { runCli } from './support/run-cli';
import { newPlayer, registerClubUser, TestApp } from './support/test-app';
import { testDatabaseKind } from './support/test-database';

const describeOnSqlite = testDatabaseKind === 'sqlite' ? describe : describe.skip;

describeOnSqlite('backup of the SQLite database while the server writes (e2e)', () => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    app = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'community-backup-'));
  });

  afterAll(async () => {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = async (target: TestApp, table: string): Promise<number> =>
    Number((await target.dataSource.query<Array<{ n: number }>>(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n);

  it('makes a consistent copy under continuous writes; a fresh server on it finds migrations current and the data readable', async () => {
    const gameServerKey = await app.createApiKey(['game-server']);
    const user = await registerClubUser(app, gameServerKey, { password: 'backup-password-1' });
    const cityOwner = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, cityOwner.uuid, cityOwner.mcid);
    const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: userkey, cityName: 'Backup Town', cityNameKana: 'ばっくあっぷ', corners: square(90000, 90000), count: 100, recaptcha: 'pass' });
    expect(created.status).toBe(201);

    // Writers that keep going for the whole backup.
    let writing = true;
    let written = 0;
    const writers = Array.from({ length: 3 }, async () => {
      while (writing) {
        const result = await app.post('/game-server/userkeys', newPlayer(), { headers: { 'x-api-key': gameServerKey } });
        if (result.status === 201) {
          written += 1;
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = await count(app, 'user_keys');
    const writtenBefore = written;
    const out = join(dir, 'copy.sqlite');
    const backup = await runCli(['backup', '--out', out, '--json'], { DATABASE_URL: app.database.url });
    const writtenDuring = written - writtenBefore;
    await new Promise((resolve) => setTimeout(resolve, 200));
    writing = false;
    await Promise.all(writers);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout)).toEqual({ backup: out, bytes: expect.any(Number) });
    expect(writtenDuring).toBeGreaterThan(0);
    const after = await count(app, 'user_keys');

    const restored = await TestApp.start({}, { database: { url: `sqlite:${out}`, drop: () => Promise.resolve() } });
    try {
      expect(await restored.dataSource.showMigrations()).toBe(false);
      const copied = await count(restored, 'user_keys');
      expect(copied).toBeGreaterThanOrEqual(before);
      expect(copied).toBeLessThanOrEqual(after);
      expect(await count(restored, 'players')).toBeGreaterThan(0);
      const integrity = await restored.dataSource.query<Array<{ integrity_check: string }>>('PRAGMA integrity_check');
      expect(integrity).toEqual([{ integrity_check: 'ok' }]);
      const city = `/cities/${created.body.cityId}`;
      const [original, copy] = [await app.get(city), await restored.get(city)];
      expect(copy.status).toBe(original.status);
      expect(copy.body).toEqual(original.body);
      const signIn = await restored.get('/club/token', { query: { username: user.mcid, password: 'backup-password-1', recaptcha: 'pass' } });
      expect(signIn.status).toBe(200);
    } finally {
      await restored.stop({ keepCaptcha: false });
    }
  });

  it('refuses to overwrite an existing file', async () => {
    const out = join(dir, 'twice.sqlite');
    expect((await runCli(['backup', '--out', out, '--json'], { DATABASE_URL: app.database.url })).code).toBe(0);
    const again = await runCli(['backup', '--out', out, '--json'], { DATABASE_URL: app.database.url });
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({ error: expect.stringMatching(/exists already/) });
  });
});

describe('backup on MySQL (e2e)', () => {
  it('refuses and prints the mariadb-dump command for the configured database, without the password', async () => {
    const result = await runCli(['backup', '--out', '/var/backups/community.sql'], { DATABASE_URL: 'mysql://community:S3cret-pw@db.internal:3307/community_prod' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('mariadb-dump --single-transaction');
    expect(result.stderr).toMatch(/-h db\.internal -P 3307 -u community -p community_prod > \/var\/backups\/community\.sql/);
    expect(result.stdout + result.stderr).not.toContain('S3cret-pw');
  });
});
