import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
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

  it('asks SQLite for its change counter once per turn of the event loop, and again at once after forgetChangeCounter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sql-reader-'));
    const file = join(dir, 'counter.sqlite');
    const dataSource = await new DataSource({ type: 'better-sqlite3', database: file, enableWAL: true }).initialize();
    await dataSource.query('CREATE TABLE items (value INTEGER)');
    const reader = await SqlReader.open(dataSource);
    // Another process's connection: its commits change the counter the reader sees.
    const other = new BetterSqlite3(file);
    try {
      const first = reader.changeCounter();
      other.exec('INSERT INTO items VALUES (1)');
      // The same turn: the counter as the turn began.
      expect(reader.changeCounter()).toBe(first);
      await new Promise((resolve) => setImmediate(resolve));
      const second = reader.changeCounter();
      expect(second).not.toBe(first);
      other.exec('INSERT INTO items VALUES (2)');
      reader.forgetChangeCounter();
      expect(reader.changeCounter()).not.toBe(second);
    } finally {
      other.close();
      reader.onApplicationShutdown();
      await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
