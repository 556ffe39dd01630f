import Database from 'better-sqlite3';
import { BOOKKEEPING_TABLES } from './backup-tables';
import { DatabaseReader, quoteSqlite, RowWriter, TableSchema } from './database-access';

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

export function sqliteTables(db: Database.Database): TableSchema[] {
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name);
  return names
    .filter((name) => !BOOKKEEPING_TABLES.has(name) && !name.startsWith('sqlite_'))
    .map((name) => {
      const columns = db.prepare(`PRAGMA table_info(${quoteSqlite(name)})`).all() as ColumnInfo[];
      return {
        name,
        columns: columns.map((column) => ({ name: column.name, declared: column.type, nullable: column.notnull === 0 && column.pk === 0 })),
        primaryKey: columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name),
      };
    });
}

export function sqliteMigrations(db: Database.Database): string[] {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").get()) {
    return [];
  }
  return (db.prepare('SELECT name FROM migrations ORDER BY timestamp, id').all() as Array<{ name: string }>).map((row) => row.name);
}

/**
 * A SQLite database read through its own connection. As a backup's source it holds one read
 * transaction from the first read to close: in WAL mode that is a snapshot, and the server's
 * writers carry on meanwhile.
 */
export class SqliteReader implements DatabaseReader {
  readonly kind = 'sqlite' as const;

  private constructor(private readonly db: Database.Database) {}

  /** Reads through a connection the caller owns (the scratch copy). */
  static over(db: Database.Database): SqliteReader {
    return new SqliteReader(db);
  }

  static open(file: string, options: { snapshot: boolean }): SqliteReader {
    // Not opened read-only: a read-only connection cannot create the WAL index (-shm) when no
    // other connection has it open. It only ever reads.
    const db = new Database(file, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    if (options.snapshot) {
      db.exec('BEGIN');
      // The snapshot starts with the first read, not with BEGIN: take it now.
      db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    }
    return new SqliteReader(db);
  }

  tables(): Promise<TableSchema[]> {
    return Promise.resolve(sqliteTables(this.db));
  }

  migrations(): Promise<string[]> {
    return Promise.resolve(sqliteMigrations(this.db));
  }

  async *rows(table: string, columns: string[]): AsyncIterable<unknown[]> {
    const statement = this.db.prepare(`SELECT ${columns.map(quoteSqlite).join(', ')} FROM ${quoteSqlite(table)}`).raw(true).safeIntegers(true);
    let sinceYield = 0;
    for (const row of statement.iterate() as IterableIterator<unknown[]>) {
      yield row;
      // The iteration is synchronous: give the event loop (the file's writes) a turn now and then.
      sinceYield += 1;
      if (sinceYield >= 2000) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  close(): Promise<void> {
    if (this.db.inTransaction) {
      this.db.exec('COMMIT');
    }
    this.db.close();
    return Promise.resolve();
  }
}

/** Loads rows into a SQLite scratch file, inside the caller's transaction. */
export class SqliteRowWriter implements RowWriter {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  clear(table: string): Promise<void> {
    this.db.prepare(`DELETE FROM ${quoteSqlite(table)}`).run();
    return Promise.resolve();
  }

  insert(table: string, columns: string[], rows: unknown[][]): Promise<Array<{ index: number; reason: string }>> {
    const key = `${table}\u0000${columns.join('\u0000')}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(`INSERT INTO ${quoteSqlite(table)} (${columns.map(quoteSqlite).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      this.statements.set(key, statement);
    }
    const refused: Array<{ index: number; reason: string }> = [];
    rows.forEach((row, index) => {
      try {
        statement.run(row);
      } catch (error) {
        const code = String((error as { code?: string }).code ?? '');
        if (!code.startsWith('SQLITE_CONSTRAINT') && code !== 'SQLITE_MISMATCH') {
          throw error;
        }
        refused.push({ index, reason: code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ? 'a duplicate of another row\'s unique value' : `SQLite refused the row (${code})` });
      }
    });
    return Promise.resolve(refused);
  }
}
