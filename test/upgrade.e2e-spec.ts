import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

/** Upgrading a release-1 database (its own migrations only) to this release. */
describe('upgrade from release 1 (e2e)', () => {
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
});
