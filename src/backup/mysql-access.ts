import { Connection, createConnection, RowDataPacket } from 'mysql2';
import type { Connection as PromiseConnection } from 'mysql2/promise';
import { BOOKKEEPING_TABLES } from './backup-tables';
import { DatabaseReader, quoteMysql, RowWriter, TableSchema } from './database-access';

/** The connection URL with another database name (the scratch database, the kept one). */
export function mysqlUrlFor(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

export function mysqlDatabaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl.replace(/^mariadb:/, 'mysql:')).pathname.replace(/^\//, ''));
}

/**
 * A raw connection: dates and big integers as text, exactly as stored, so that values encode the
 * same as SQLite's. The connection errors never carry the password (mysql2 does not print it).
 */
export function openMysql(databaseUrl: string, database?: string): Promise<Connection> {
  const uri = database === undefined ? databaseUrl.replace(/^mariadb:/, 'mysql:') : mysqlUrlFor(databaseUrl, database);
  return new Promise((resolve, reject) => {
    const connection = createConnection({ uri, dateStrings: true, supportBigNumbers: true, bigNumberStrings: true, charset: 'utf8mb4_unicode_ci', timezone: 'Z', connectTimeout: 5000 });
    connection.connect((error) => (error ? reject(error) : resolve(connection)));
  });
}

export async function mysqlTables(connection: PromiseConnection, database: string): Promise<TableSchema[]> {
  const [columns] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName, COLUMN_TYPE AS columnType, IS_NULLABLE AS nullable, COLUMN_KEY AS columnKey
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    [database],
  );
  const [tables] = await connection.query<RowDataPacket[]>("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'", [database]);
  const [keys] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = ? AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    [database],
  );
  return tables
    .map((table) => String(table.name))
    .filter((name) => !BOOKKEEPING_TABLES.has(name))
    .sort()
    .map((name) => ({
      name,
      columns: columns
        .filter((column) => column.tableName === name)
        .map((column) => ({ name: String(column.columnName), declared: String(column.columnType), nullable: column.nullable === 'YES' })),
      primaryKey: keys.filter((key) => key.tableName === name).map((key) => String(key.columnName)),
    }));
}

export async function mysqlMigrations(connection: PromiseConnection, database: string): Promise<string[]> {
  const [found] = await connection.query<RowDataPacket[]>("SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'migrations'", [database]);
  if (found.length === 0) {
    return [];
  }
  const [rows] = await connection.query<RowDataPacket[]>(`SELECT name FROM ${quoteMysql(database)}.migrations ORDER BY timestamp, id`);
  return rows.map((row) => String(row.name));
}

/**
 * A MariaDB database read through its own connection. As a backup's source it reads inside one
 * transaction started WITH CONSISTENT SNAPSHOT at REPEATABLE READ: every table as of one moment,
 * while the server's writers carry on. Rows are streamed (never a whole table in memory).
 */
export class MysqlReader implements DatabaseReader {
  readonly kind = 'mysql' as const;

  private constructor(
    private readonly connection: Connection,
    private readonly database: string,
  ) {}

  static async open(databaseUrl: string, options: { snapshot: boolean; database?: string }): Promise<MysqlReader> {
    const database = options.database ?? mysqlDatabaseName(databaseUrl);
    const connection = await openMysql(databaseUrl, database);
    if (options.snapshot) {
      await connection.promise().query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await connection.promise().query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    }
    return new MysqlReader(connection, database);
  }

  tables(): Promise<TableSchema[]> {
    return mysqlTables(this.connection.promise(), this.database);
  }

  migrations(): Promise<string[]> {
    return mysqlMigrations(this.connection.promise(), this.database);
  }

  async *rows(table: string, columns: string[]): AsyncIterable<unknown[]> {
    const stream = this.connection.query({ sql: `SELECT ${columns.map(quoteMysql).join(', ')} FROM ${quoteMysql(table)}`, rowsAsArray: true }).stream({ highWaterMark: 500 });
    for await (const row of stream) {
      yield row as unknown[];
    }
  }

  async close(): Promise<void> {
    await this.connection.promise().end();
  }
}

/** A multi-row INSERT stays well under max_allowed_packet (16 MiB by default). */
const MAX_STATEMENT_BYTES = 4 * 1024 * 1024;

/** Loads rows into the scratch database, strictly (a value MariaDB would change is refused instead), foreign key checks off. */
export class MysqlRowWriter implements RowWriter {
  constructor(private readonly connection: PromiseConnection) {}

  async prepare(): Promise<void> {
    // Unique checks stay on: a text SQLite keeps apart may collide under MariaDB's collation.
    await this.connection.query("SET SESSION FOREIGN_KEY_CHECKS = 0, SQL_MODE = 'STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION'");
  }

  async clear(table: string): Promise<void> {
    await this.connection.query(`DELETE FROM ${quoteMysql(table)}`);
  }

  async insert(table: string, columns: string[], rows: unknown[][]): Promise<Array<{ index: number; reason: string }>> {
    const head = `INSERT INTO ${quoteMysql(table)} (${columns.map(quoteMysql).join(', ')}) VALUES `;
    const refused: Array<{ index: number; reason: string }> = [];
    const tuples = rows.map((row) => `(${row.map((value) => this.connection.escape(typeof value === 'bigint' ? value.toString() : value)).join(', ')})`);
    let start = 0;
    while (start < tuples.length) {
      let end = start;
      let bytes = 0;
      while (end < tuples.length && (end === start || bytes + tuples[end].length <= MAX_STATEMENT_BYTES)) {
        bytes += tuples[end].length;
        end += 1;
      }
      try {
        await this.connection.query(head + tuples.slice(start, end).join(', '));
      } catch (error) {
        if (!isValueRefusal(error)) {
          throw error;
        }
        // Which rows? One by one, so that each refused row is named and the others still load.
        for (let index = start; index < end; index += 1) {
          try {
            await this.connection.query(head + tuples[index]);
          } catch (rowError) {
            if (!isValueRefusal(rowError)) {
              throw rowError;
            }
            refused.push({ index, reason: refusalReason(rowError) });
          }
        }
      }
      start = end;
    }
    return refused;
  }
}

/** MariaDB errors about a value or a unique key (never its text: it may quote the value). */
const VALUE_ERRORS: Record<number, string> = {
  1062: "a duplicate of another row's unique value (MariaDB compares this text case- and accent-insensitively)",
  1264: 'a number outside the column\'s range',
  1265: 'a value the column cannot hold',
  1292: 'a value MariaDB does not take as a date-time',
  1366: 'a value the column cannot hold (not valid utf8mb4, or not a number)',
  1406: 'a text longer than the column holds',
  1048: 'NULL in a column that requires a value',
};

function isValueRefusal(error: unknown): boolean {
  return typeof (error as { errno?: unknown }).errno === 'number' && (error as { errno: number }).errno in VALUE_ERRORS;
}

function refusalReason(error: unknown): string {
  return VALUE_ERRORS[(error as { errno: number }).errno] ?? 'MariaDB refused the row';
}
