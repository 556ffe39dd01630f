import { createRequire } from 'node:module';
import { expectError, HttpResult, newPlayer, registerClubUser, TestApp } from '../support/test-app';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { directQuery as directQueryOn, mysqlBehindProxy } from '../support/mysql-behind-proxy';
import type { TcpProxy } from '../support/tcp-proxy';

/** The answer and how long it took. */
async function timed<T>(request: Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await request;
  return { result, ms: Date.now() - started };
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** better-sqlite3 ships no types; this test needs only a second connection that can hold the write lock. */
const Database = createRequire(__filename)('better-sqlite3') as new (path: string) => { exec(sql: string): void; close(): void };

// The fault suite runs once, whatever TEST_DATABASE says: each block names its database.
describe('database faults on MariaDB, through a TCP proxy', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    database = await createTestDatabase('mysql');
    const behind = await mysqlBehindProxy(database);
    proxy = behind.proxy;
    app = await TestApp.start({ DATABASE_URL: behind.url }, { database });
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterEach(() => proxy.up());

  afterAll(async () => {
    await app?.stop();
    await proxy?.stop();
  });

  const directQuery = <T>(sql: string, values: unknown[]): Promise<T[]> => directQueryOn<T>(database, sql, values);

  const issueKey = (uuid: string, mcid: string) => app.post('/game-server/userkeys', { uuid, mcid }, { headers: { 'x-api-key': gameServerKey } });

  async function recover(): Promise<void> {
    proxy.up();
    await eventually(async () => (await app.get('/health/ready')).status === 200, 5000);
  }

  it('answers a quick 503 envelope on DB-backed endpoints while the database is gone, and stays alive', async () => {
    const user = await registerClubUser(app, gameServerKey);
    expect((await app.get('/health/ready')).status).toBe(200);
    proxy.down();
    const player = newPlayer();
    const calls: Array<[string, Promise<HttpResult>]> = [
      ['readiness', app.get('/health/ready')],
      ['user key issue', issueKey(player.uuid, player.mcid)],
      ['club session', app.get('/club/@me', { headers: { authorization: `Bearer ${user.usertoken}` } })],
      ['sign-in', app.post('/club/token', { username: user.mcid, password: 'club-password-1', recaptcha: 'pass' })],
    ];
    for (const [name, call] of calls) {
      const { result, ms } = await timed(call);
      expectError(result, 503, 'service_unavailable');
      expect({ name, fast: ms < 2000 }).toEqual({ name, fast: true });
      expect(result.text).not.toMatch(/ECONN|PROTOCOL|SELECT|INSERT/);
    }
    expect((await app.get('/health')).status).toBe(200);
    await recover();
    expect((await issueKey(player.uuid, player.mcid)).status).toBe(201);
    expect((await app.get('/club/@me', { headers: { authorization: `Bearer ${user.usertoken}` } })).status).toBe(200);
  });

  it('answers 503 within the connect timeout when the database stops answering (no hang)', async () => {
    proxy.blackhole();
    const { result, ms } = await timed(app.get('/health/ready'));
    expectError(result, 503, 'service_unavailable');
    expect(ms).toBeLessThan(4500);
    await recover();
  });

  it('rolls back a register whose connection drops mid-transaction: no account, key unspent', async () => {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    // The account row is already inserted and the key spent (uncommitted) when the token insert is cut off.
    const dropped = proxy.dropWhenClientSends('INSERT INTO club_tokens');
    const failed = await app.post('/club/register', { userkey, password: 'long-password', recaptcha: 'pass' });
    await dropped;
    expectError(failed, 503, 'service_unavailable');
    expect(await directQuery('SELECT id FROM club_accounts WHERE player_uuid = ?', [player.uuid])).toEqual([]);
    expect(await directQuery('SELECT spent_at FROM user_keys WHERE player_uuid = ?', [player.uuid])).toEqual([{ spent_at: null }]);
    expect((await app.post('/club/register', { userkey, password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
  });

  it('keeps the old user key when replacing it fails mid-transaction', async () => {
    const player = newPlayer();
    const oldKey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const dropped = proxy.dropWhenClientSends('INSERT INTO user_keys');
    expectError(await issueKey(player.uuid, player.mcid), 503, 'service_unavailable');
    await dropped;
    expect(await directQuery('SELECT COUNT(*) AS n FROM user_keys WHERE player_uuid = ?', [player.uuid])).toEqual([{ n: 1 }]);
    expect((await app.post('/club/register', { userkey: oldKey, password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
  });

  it('answers every request of a burst with success or 503 when the database drops under load', async () => {
    const users = [];
    for (let index = 0; index < 10; index += 1) {
      users.push(await registerClubUser(app, gameServerKey));
    }
    const auth = (usertoken: string) => ({ headers: { authorization: `Bearer ${usertoken}` } });
    proxy.slow(20);
    let written = 0;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Reads and single-row writes started 15 ms apart; the database goes away once three writes are
    // back, with others in flight and the rest still to come.
    const burst = users.flatMap((user, index) => [
      pause(index * 45).then(() => app.get('/health/ready')),
      pause(index * 45 + 15).then(() => app.get('/club/@me', auth(user.usertoken))),
      pause(index * 45 + 30)
        .then(() => app.post('/club/nickname', { nickname: `burst ${index}`, recaptcha: 'pass' }, auth(user.usertoken)))
        .then((result) => {
          written += 1;
          if (written === 3) {
            proxy.down();
          }
          return result;
        }),
    ]);
    const { result: results, ms } = await timed(Promise.all(burst));
    expect(ms).toBeLessThan(5000);
    expect(results.filter((result) => ![200, 503].includes(result.status)).map((result) => result.text)).toEqual([]);
    expect(results.filter((result) => result.status === 503).length).toBeGreaterThan(0);
    await recover();
    // Every nickname the service confirmed is stored.
    const confirmed = users.filter((_, index) => results[index * 3 + 2]?.status === 200);
    expect(confirmed.length).toBeGreaterThanOrEqual(3);
    for (const user of confirmed) {
      const rows = await directQuery<{ nickname: string }>('SELECT nickname FROM club_accounts WHERE player_uuid = ?', [user.uuid]);
      expect(rows[0]?.nickname).toMatch(/^burst \d+$/);
    }
  });
});

describe('database faults on SQLite', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start({}, { database: await createTestDatabase('sqlite') });
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('answers 503 when another process holds the write lock past the busy timeout, writes nothing, and recovers', async () => {
    const player = newPlayer();
    const oldKey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const other = new Database(app.database.url.slice('sqlite:'.length));
    try {
      other.exec('BEGIN EXCLUSIVE');
      const { result, ms } = await timed(app.post('/game-server/userkeys', player, { headers: { 'x-api-key': gameServerKey } }));
      expectError(result, 503, 'service_unavailable');
      // busy_timeout is 5 s (waits out a short CLI write); then a clean 503, not a hang.
      expect(ms).toBeLessThan(8000);
      expect((await app.get('/health')).status).toBe(200);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // Nothing was replaced: the old key still registers.
    expect((await app.post('/club/register', { userkey: oldKey, password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
    expect((await app.post('/game-server/userkeys', newPlayer(), { headers: { 'x-api-key': gameServerKey } })).status).toBe(201);
  });
});
