import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TestApp } from './support/test-app';

const MIGRATIONS = join(__dirname, '..', 'src', 'database', 'migrations');
/** The migrations of the first release: the schema a running installation upgrades from. */
const FIRST_RELEASE = ['foundation', 'cities', 'users', 'banlist', 'data-versions'].map((name) => join(MIGRATIONS, `*-${name}.ts`));

/**
 * The region-name migration (docs/api.md, City rules) on a database the first release filled: on SQLite,
 * adding columns rebuilds the `cities` table that requests and the audit trail point at, so the
 * rows, their links and the unique name indexes must survive it.
 */
describe('cities migration from the first release (e2e)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it('keeps every city, request and audit entry, and the name rules, after adding region names', async () => {
    const options = buildDataSourceOptions({ DATABASE_URL: database.url, DATABASE_MIGRATIONS_RUN: false });
    const old = new DataSource({ ...options, entities: [], migrations: FIRST_RELEASE });
    await old.initialize();
    await old.runMigrations();
    const at = '2026-01-02 03:04:05.000';
    await old.query('INSERT INTO players (uuid, mcid, mcid_key, created_at) VALUES (?, ?, ?, ?)', ['069a79f4-44e9-4726-a5be-fca90e38aaf5', 'Notch', 'notch', at]);
    await old.query(
      'INSERT INTO cities (id, state, owner_uuid, name, name_kana, name_key, kana_key, summary, corners, block_count, min_x, max_x, min_z, max_z, created_at, updated_at) ' +
        "VALUES (1, 'active', ?, 'Chuo', 'ちゅうおう', 'chuo', 'ちゅうおう', 'Old summary', '[[0,0],[0,9],[9,9],[9,0]]', 100, 0, 9, 0, 9, ?, ?)",
      ['069a79f4-44e9-4726-a5be-fca90e38aaf5', at, at],
    );
    await old.query(
      "INSERT INTO city_requests (id, city_id, type, status, changes, requester_uuid, created_at, decided_at, decided_by) VALUES (1, 1, 'create', 'approved', '{}', ?, ?, ?, 'apikey:ops')",
      ['069a79f4-44e9-4726-a5be-fca90e38aaf5', at, at],
    );
    await old.query("INSERT INTO city_audit (city_id, request_id, actor, action, at) VALUES (1, 1, 'apikey:ops', 'create_approved', ?)", [at]);
    await old.destroy();

    // The current server migrates at start.
    const app = await TestApp.start({}, { database });
    try {
      const city = await app.get<{ data: Record<string, unknown> }>('/cities/1');
      expect(city.body.data).toMatchObject({ id: 1, name: 'Chuo', summary: 'Old summary', regionName: null, regionname: null, count: 100, owner: { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', mcid: 'Notch' } });
      const operatorKey = await app.createApiKey(['operator'], 'ops');
      const requests = await app.get<{ data: Array<Record<string, unknown>> }>('/cities/requests', { query: { status: 'approved' }, headers: { 'x-api-key': operatorKey } });
      expect(requests.body.data).toEqual([expect.objectContaining({ id: 1, city: { id: 1, name: 'Chuo' }, decidedBy: 'apikey:ops' })]);
      const history = await app.get<{ data: Array<Record<string, unknown>> }>('/cities/1/history', { headers: { 'x-api-key': operatorKey } });
      expect(history.body.data).toEqual([expect.objectContaining({ action: 'create_approved', requestId: 1 })]);
      // The unique name index survived the rebuild, and the new one holds.
      const rows = await app.dataSource.query<unknown[]>('SELECT id FROM cities');
      expect(rows).toHaveLength(1);
      await expect(
        app.dataSource.query(
          'INSERT INTO cities (state, owner_uuid, name, name_kana, name_key, kana_key, corners, block_count, min_x, max_x, min_z, max_z, created_at, updated_at) ' +
            "VALUES ('pending', '069a79f4-44e9-4726-a5be-fca90e38aaf5', 'CHUO', 'べつ', 'chuo', 'べつ', '[]', 1, 0, 0, 0, 0, ?, ?)",
          [at, at],
        ),
      ).rejects.toThrow(/name_key/);
      await app.dataSource.query("UPDATE cities SET region_name = 'chuo', region_key = 'chuo' WHERE id = 1");
      await expect(
        app.dataSource.query(
          'INSERT INTO cities (state, owner_uuid, name, name_kana, name_key, kana_key, region_name, region_key, corners, block_count, min_x, max_x, min_z, max_z, created_at, updated_at) ' +
            "VALUES ('pending', '069a79f4-44e9-4726-a5be-fca90e38aaf5', 'Other', 'べつ', 'other', 'べつ', 'chuo', 'chuo', '[]', 1, 0, 0, 0, 0, ?, ?)",
          [at, at],
        ),
      ).rejects.toThrow(/region_key/);
    } finally {
      await app.stop({ keepDatabase: true });
    }
  });
});
