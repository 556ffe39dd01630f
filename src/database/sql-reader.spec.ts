import { DataSource } from 'typeorm';
import { SqlReader, STATEMENT_CACHE_BOUNDS } from './sql-reader';

describe(SqlReader.name, () => {
  it('keeps a bounded number of prepared statements however many SQL texts it meets', async () => {
    const dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    const reader = await SqlReader.open(dataSource);
    try {
      for (let index = 0; index < STATEMENT_CACHE_BOUNDS.maxEntries * 2; index += 1) {
        expect(await reader.one<{ value: number }>(`SELECT ${index} AS value`)).toEqual({ value: index });
      }
      expect(reader.heldStatements.entries).toBe(STATEMENT_CACHE_BOUNDS.maxEntries);
      expect(reader.heldStatements.bytes).toBeLessThanOrEqual(STATEMENT_CACHE_BOUNDS.maxBytes);
      // A forgotten statement is prepared again.
      expect(await reader.all<{ value: number }>('SELECT 0 AS value')).toEqual([{ value: 0 }]);
    } finally {
      await dataSource.destroy();
    }
  });
});
