import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { QueueFullError } from '../common/limits/bounded-semaphore';
import { loadConfig } from '../config/app-config';
import type { Telemetry } from '../common/telemetry/telemetry';
import { SqlReader } from './sql-reader';
import { UnitOfWork } from './unit-of-work';

// Telemetry is used only on MySQL (deadlock retries).
const telemetry = {} as Telemetry;

describe(UnitOfWork.name, () => {
  let dir: string;
  let dataSource: DataSource;
  let reader: SqlReader;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'unit-of-work-'));
    dataSource = await new DataSource({ type: 'better-sqlite3', database: join(dir, 'test.sqlite'), enableWAL: true }).initialize();
    await dataSource.query('CREATE TABLE items (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)');
    // The named-lock table of the foundation migration, which every app database has.
    await dataSource.query('CREATE TABLE app_locks (name VARCHAR(64) PRIMARY KEY)');
    reader = await SqlReader.open(dataSource);
  });

  afterEach(async () => {
    reader.onApplicationShutdown();
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps writing after well over 10,000 write transactions on SQLite (no wrapper pile-up on the shared runner)', async () => {
    const unitOfWork = new UnitOfWork(dataSource, telemetry, loadConfig({}), reader);
    const count = 12_500;
    for (let i = 0; i < count; i += 1) {
      await unitOfWork.transaction((tx) => tx.run('INSERT INTO items (value) VALUES (?)', [i]));
    }
    // Writes still work, and still begin IMMEDIATE (the write lock first).
    const seen: string[] = [];
    await unitOfWork.transaction(async (tx) => {
      seen.push(String((await tx.one<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n));
      await tx.run('INSERT INTO items (value) VALUES (?)', [-1]);
    });
    expect(seen).toEqual([String(count)]);
    const [row] = await dataSource.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM items');
    expect(row?.n).toBe(count + 1);
  }, 120_000);

  it('takes the SQLite write lock as a transaction begins, before its first read', async () => {
    const unitOfWork = new UnitOfWork(dataSource, telemetry, loadConfig({}), reader);
    const other = new BetterSqlite3(join(dir, 'test.sqlite'));
    other.pragma('busy_timeout = 0');
    const tryWriteLock = (): string => {
      try {
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
        return 'free';
      } catch (error) {
        return (error as { code?: string }).code ?? 'unknown';
      }
    };
    try {
      let seenInside = '';
      // The transaction only reads: a deferred BEGIN would hold no write lock at this point.
      await unitOfWork.transaction(async (tx) => {
        await tx.one('SELECT COUNT(*) AS n FROM items');
        seenInside = tryWriteLock();
      });
      expect({ inside: seenInside, after: tryWriteLock() }).toEqual({ inside: 'SQLITE_BUSY', after: 'free' });
    } finally {
      other.close();
    }
  });

  it('refuses a write transaction at once when SQLITE_WRITE_QUEUE_LIMIT are already waiting, and accepts again once drained', async () => {
    const unitOfWork = new UnitOfWork(dataSource, telemetry, loadConfig({ SQLITE_WRITE_QUEUE_LIMIT: '3' }), reader);
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    const running = unitOfWork.transaction(() => held);
    const waiting = Array.from({ length: 3 }, (_, i) => unitOfWork.transaction((tx) => tx.run('INSERT INTO items (value) VALUES (?)', [i])));
    await expect(unitOfWork.transaction((tx) => tx.run('INSERT INTO items (value) VALUES (99)'))).rejects.toBeInstanceOf(QueueFullError);
    open();
    await Promise.all([running, ...waiting]);
    await unitOfWork.transaction((tx) => tx.run('INSERT INTO items (value) VALUES (100)'));
    const rows = await dataSource.query<Array<{ value: number }>>('SELECT value FROM items ORDER BY id');
    expect(rows.map((row) => row.value)).toEqual([0, 1, 2, 100]);
  });

  it('makes the reader ask for the change counter again after each transaction, so a read after a write in the same turn sees it', async () => {
    const unitOfWork = new UnitOfWork(dataSource, telemetry, loadConfig({}), reader);
    const before = reader.changeCounter();
    await unitOfWork.transaction((tx) => tx.run('INSERT INTO items (value) VALUES (1)'));
    expect(reader.changeCounter()).not.toBe(before);
  });
});
