import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

/** Upgrading an earlier release's database (its own migrations only) to this release. */
describe('upgrading an earlier release (e2e)', () => {
  it('keeps API keys whose names collide case-insensitively: the oldest as is, later ones with their id appended', async () => {
    const database = await createTestDatabase();
    const releaseOne = new DataSource({
      ...buildDataSourceOptions({ DATABASE_URL: database.url, DATABASE_MIGRATIONS_RUN: false }),
      migrations: [join(__dirname, '..', 'src', 'database', 'migrations', '17638*.{ts,js}')],
    });
    await releaseOne.initialize();
    await releaseOne.runMigrations();
    const insert = 'INSERT INTO api_keys (name, key_hash, scopes, created_at) VALUES (?, ?, ?, ?)';
    await releaseOne.query(insert, ['Ops', 'a'.repeat(64), 'operator', '2025-01-01 00:00:00.000']);
    if (database.url.startsWith('sqlite:')) {
      // Only SQLite let a case variant in (MySQL's collation already refused it).
      await releaseOne.query(insert, ['ops', 'b'.repeat(64), 'operator', '2025-01-02 00:00:00.000']);
    }
    await releaseOne.query(insert, ['game', 'c'.repeat(64), 'game-server', '2025-01-03 00:00:00.000']);
    await releaseOne.destroy();

    const app = await TestApp.start({}, { database });
    try {
      const rows = await app.dataSource.query<Array<{ id: number; name: string; nameKey: string }>>('SELECT id, name, name_key AS nameKey FROM api_keys ORDER BY id');
      const expected = database.url.startsWith('sqlite:')
        ? [
            { name: 'Ops', nameKey: 'ops' },
            { name: `ops-${rows[1]?.id}`, nameKey: `ops-${rows[1]?.id}` },
            { name: 'game', nameKey: 'game' },
          ]
        : [
            { name: 'Ops', nameKey: 'ops' },
            { name: 'game', nameKey: 'game' },
          ];
      expect(rows.map(({ name, nameKey }) => ({ name, nameKey }))).toEqual(expected);
    } finally {
      await app.stop();
    }
  });

  it('makes again the city name keys that folded capital sharp s once, and keeps a city whose corrected key is taken as it was', async () => {
    const database = await createTestDatabase();
    const releaseThree = new DataSource({
      ...buildDataSourceOptions({ DATABASE_URL: database.url, DATABASE_MIGRATIONS_RUN: false }),
      migrations: ['17638', '17639', '17640', '17641'].map((release) => join(__dirname, '..', 'src', 'database', 'migrations', `${release}*.{ts,js}`)),
    });
    await releaseThree.initialize();
    await releaseThree.runMigrations();
    const owner = '00000000-0000-4000-8000-00000000beef';
    await releaseThree.query('INSERT INTO players (uuid, mcid, mcid_key, created_at) VALUES (?, ?, ?, ?)', [owner, 'Owner', 'owner', '2025-01-01 00:00:00.000']);
    const insert =
      'INSERT INTO cities (state, owner_uuid, name, name_kana, name_key, kana_key, corners, block_count, min_x, max_x, min_z, max_z, created_at, updated_at) ' +
      "VALUES ('active', ?, ?, ?, ?, ?, '[]', 1, ?, ?, 0, 0, '2025-01-01 00:00:00.000', '2025-01-01 00:00:00.000')";
    // Keys as the release-3 fold made them: "ẞ" became "ß", "ß" and "SS" became "ss".
    await releaseThree.query(insert, [owner, 'GROẞDORF', 'ぐろーすどるふ', 'großdorf', 'ぐろーすどるふ', 0, 0]);
    await releaseThree.query(insert, [owner, 'Kleinstadt', 'くらいんシュタット', 'kleinstadt', 'くらいんシュタット', 10, 10]);
    await releaseThree.query(insert, [owner, 'MEERSTRAẞE', 'めーあ', 'meerstraße', 'めーあ', 20, 20]);
    await releaseThree.query(insert, [owner, 'Meerstrasse', 'めーあ2', 'meerstrasse', 'めーあ2', 30, 30]);
    await releaseThree.destroy();

    const app = await TestApp.start({}, { database });
    try {
      const rows = await app.dataSource.query<Array<{ name: string; nameKey: string }>>('SELECT name, name_key AS nameKey FROM cities ORDER BY id');
      expect(rows).toEqual([
        { name: 'GROẞDORF', nameKey: 'grossdorf' },
        { name: 'Kleinstadt', nameKey: 'kleinstadt' },
        // "meerstrasse" is another city's: both stay, this one with its old key.
        { name: 'MEERSTRAẞE', nameKey: 'meerstraße' },
        { name: 'Meerstrasse', nameKey: 'meerstrasse' },
      ]);
      const found = await app.get(`/cities?name=${encodeURIComponent('Großdorf')}`);
      expect(found.body).toMatchObject({ status: true, data: { name: 'GROẞDORF' } });
    } finally {
      await app.stop();
    }
  });
});
