import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { square } from './support/cities';
import { newPlayer, registerClubUser, TestApp } from './support/test-app';
import { TestDatabase, testDatabaseKind } from './support/test-database';

const ADMIN_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

/** A MariaDB database created with latin1 as its default character set (the server default here). */
async function latin1Database(): Promise<TestDatabase> {
  const name = `community_latin1_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection(ADMIN_URL);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET latin1 COLLATE latin1_swedish_ci`);
  await admin.end();
  return {
    url: `${ADMIN_URL}/${name}`,
    drop: async () => {
      const connection = await createConnection(ADMIN_URL);
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}

async function nonUtf8mb4Columns(app: TestApp): Promise<string[]> {
  const rows = await app.dataSource.query<Array<{ t: string; c: string; cs: string }>>(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, CHARACTER_SET_NAME AS cs FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND CHARACTER_SET_NAME IS NOT NULL AND CHARACTER_SET_NAME <> 'utf8mb4'`,
  );
  return rows.map((row) => `${row.t}.${row.c} (${row.cs})`);
}

async function binaryColumns(app: TestApp): Promise<string[]> {
  const rows = await app.dataSource.query<Array<{ t: string; c: string }>>(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME = 'utf8mb4_bin' ORDER BY t, c`,
  );
  return rows.map((row) => `${row.t}.${row.c}`);
}

/** Japanese in the achievements title, a city's names and a nickname: each a 2xx, never a 500. */
async function writeJapanese(app: TestApp): Promise<void> {
  const gameServerKey = await app.createApiKey(['game-server']);
  const asServer = { headers: { 'x-api-key': gameServerKey } };
  const defined = await app.request('PUT', '/game-server/achievements', { body: { achievements: [{ id: 1, title: '初めての街づくり', description: '街を一つ申請した 🏙️' }] }, ...asServer });
  expect(defined.status).toBe(200);
  const player = newPlayer();
  const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
  const city = await app.post('/cities/create', { usertoken: userkey, cityName: '桜ヶ丘 市', cityNameKana: 'さくらがおか', corners: square(5000, 5000), count: 100, recaptcha: 'pass' });
  expect(city.status).toBe(201);
  const club = await registerClubUser(app, gameServerKey);
  const nickname = await app.post('/club/nickname', { usertoken: club.usertoken, nickname: 'ゆうた🎮', recaptcha: 'pass' });
  expect(nickname.status).toBe(200);
  expect(await app.dataSource.query('SELECT title FROM achievements WHERE id = 1')).toEqual([{ title: '初めての街づくり' }]);
  const me = await app.get<{ data: { nickname: string } }>('/club/@me', { query: { usertoken: club.usertoken } });
  expect(me.body.data.nickname).toBe('ゆうた🎮');
}

const describeOnMysql = testDatabaseKind === 'mysql' ? describe : describe.skip;

describeOnMysql('utf8mb4 on a latin1 MariaDB database (e2e)', () => {
  it('a fresh latin1 database: every text column is utf8mb4 after migrations and Japanese writes succeed', async () => {
    const database = await latin1Database();
    const app = await TestApp.start({}, { database });
    try {
      expect(await nonUtf8mb4Columns(app)).toEqual([]);
      expect(await binaryColumns(app)).toContain('players.mcid_key');
      await writeJapanese(app);
    } finally {
      await app.stop();
    }
  });

  it('an existing release-1 deployment on latin1: the upgrade converts its tables, keeps their data and binary keys', async () => {
    const database = await latin1Database();
    // Release 1's schema, as its migrations created it on the latin1 database.
    const releaseOne = new DataSource({
      ...buildDataSourceOptions({ DATABASE_URL: database.url, DATABASE_MIGRATIONS_RUN: false }),
      migrations: [join(__dirname, '..', 'src', 'database', 'migrations', '17638*.{ts,js}')],
    });
    await releaseOne.initialize();
    await releaseOne.runMigrations();
    const before = await releaseOne.query<Array<{ n: number }>>(
      `SELECT COUNT(*) AS n FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND CHARACTER_SET_NAME = 'latin1'`,
    );
    expect(Number(before[0]?.n)).toBeGreaterThan(5);
    await releaseOne.query("INSERT INTO achievements (id, title, description, created_at, updated_at) VALUES (7, 'Café crème', 'déjà vu', NOW(3), NOW(3))");
    await releaseOne.destroy();

    const app = await TestApp.start({}, { database });
    try {
      expect(await nonUtf8mb4Columns(app)).toEqual([]);
      const [schema] = await app.dataSource.query<Array<{ cs: string }>>('SELECT DEFAULT_CHARACTER_SET_NAME AS cs FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()');
      expect(schema?.cs).toBe('utf8mb4');
      expect(await binaryColumns(app)).toContain('players.mcid_key');
      const kept = await app.dataSource.query<Array<{ title: string; description: string }>>('SELECT title, description FROM achievements WHERE id = 7');
      expect(kept).toEqual([{ title: 'Café crème', description: 'déjà vu' }]);
      await writeJapanese(app);
      // A table a later migration creates without naming a character set is converted by the
      // runner's check after every run (here: created behind its back, then a restart).
      await app.dataSource.query('CREATE TABLE later_feature (id INT PRIMARY KEY, label VARCHAR(40) CHARACTER SET latin1 NOT NULL) DEFAULT CHARSET=latin1');
    } finally {
      await app.stop({ keepDatabase: true });
    }
    const restarted = await TestApp.start({}, { database });
    try {
      expect(await nonUtf8mb4Columns(restarted)).toEqual([]);
      await restarted.dataSource.query("INSERT INTO later_feature (id, label) VALUES (1, 'ラベル')");
    } finally {
      await restarted.stop();
    }
  });
});
