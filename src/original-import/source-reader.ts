import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';
import type { SourceRow, SourceValue } from './original-mapping';

/** The source cannot be used (unreachable, refused, not the original layout): exit status 2, nothing written. */
export class SourceError extends Error {}

/** Rows per page: a page is all the importer holds of a table at once. */
export const SOURCE_PAGE_SIZE = 5000;

const CONNECT_TIMEOUT_MS = 10_000;

function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** What the user has to do about a connection failure, in one line. */
export function describeSourceFailure(error: unknown, where: string): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error).code) : '';
  switch (code) {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return `The source database at ${where} refused the user name or password: check the credentials in --from.`;
    case 'ER_BAD_DB_ERROR':
      return `The source server at ${where} has no such database: check the database name at the end of --from.`;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
    case 'PROTOCOL_CONNECTION_LOST':
      return `Cannot reach the source database at ${where} (${code}): check the host and port in --from and that the server runs.`;
    default:
      // mysql2 refuses further queries on a connection it already saw close (no code): the peer went away.
      if (error instanceof Error && /closed state/.test(error.message)) {
        return `Lost the connection to the source database at ${where}: check that the server still runs.`;
      }
      return `Cannot read the source database at ${where}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * A read-only session on the original database. Its time zone is the source's (`--source-time-zone`),
 * so DATETIME and TIMESTAMP columns both come back as the same wall-clock text; rows stream in
 * pages by key, so no table is ever held whole.
 */
export class SourceReader {
  private constructor(
    private readonly connection: Connection,
    /** Column names by table, as this installation has them. */
    private readonly layout: Map<string, Set<string>>,
    readonly where: string,
  ) {}

  static async open(url: string, zone: string): Promise<SourceReader> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new SourceError('--from is not a URL: give mysql://USER:PASS@HOST:PORT/DATABASE.');
    }
    if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
      throw new SourceError('--from must be a mysql:// URL (mysql://USER:PASS@HOST:PORT/DATABASE).');
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (!database) {
      throw new SourceError('--from names no database: add it at the end (mysql://USER:PASS@HOST:PORT/DATABASE).');
    }
    const where = `${parsed.hostname}:${parsed.port || '3306'}/${database}`;
    let connection: Connection;
    try {
      connection = await createConnection({
        host: parsed.hostname,
        port: Number(parsed.port || 3306),
        user: decodeURIComponent(parsed.username),
        password: decodeURIComponent(parsed.password),
        database,
        // Dates as the server's text in the session zone: the importer reads the wall clock itself.
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: true,
        connectTimeout: CONNECT_TIMEOUT_MS,
        charset: 'utf8mb4',
      });
    } catch (error) {
      throw new SourceError(describeSourceFailure(error, where));
    }
    // A connection lost between queries must not crash the process: the next query fails and says so.
    connection.on('error', () => undefined);
    try {
      await connection.query('SET time_zone = ?', [zone]);
      // Read-only for this session and one consistent snapshot for the whole run.
      await connection.query('SET SESSION TRANSACTION READ ONLY');
      await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      const [rows] = await connection.query<RowDataPacket[]>(
        'SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()',
      );
      const layout = new Map<string, Set<string>>();
      for (const row of rows) {
        const table = String(row.tableName);
        layout.set(table, (layout.get(table) ?? new Set()).add(String(row.columnName)));
      }
      return new SourceReader(connection, layout, where);
    } catch (error) {
      await connection.end().catch(() => undefined);
      throw new SourceError(describeSourceFailure(error, where));
    }
  }

  hasTable(table: string): boolean {
    return this.layout.has(table);
  }

  hasColumn(table: string, column: string): boolean {
    return this.layout.get(table)?.has(column) ?? false;
  }

  /** The wanted columns this installation has (the others are read as missing). */
  columnsOf(table: string, wanted: readonly string[]): string[] {
    return wanted.filter((column) => this.hasColumn(table, column));
  }

  async count(table: string, where = '1 = 1'): Promise<number> {
    return Number((await this.query(`SELECT COUNT(*) AS n FROM ${quoteName(table)} WHERE ${where}`, []))[0]?.n ?? 0);
  }

  /** The rows of a table in pages by ascending (or descending) `id`. */
  pages(table: string, wanted: readonly string[], options: { descending?: boolean; where?: string } = {}): AsyncGenerator<SourceRow[]> {
    const columns = ['id', ...this.columnsOf(table, wanted).filter((column) => column !== 'id')].map(quoteName).join(', ');
    const direction = options.descending ? 'DESC' : 'ASC';
    const where = options.where ? ` AND (${options.where})` : '';
    return this.keyset(
      (after: SourceValue | undefined) =>
        this.query(
          `SELECT ${columns} FROM ${quoteName(table)} WHERE ${after === undefined ? '1 = 1' : `id ${options.descending ? '<' : '>'} ?`}${where} ORDER BY id ${direction} LIMIT ${SOURCE_PAGE_SIZE}`,
          after === undefined ? [] : [after],
        ),
      (last) => last.id ?? null,
    );
  }

  /** The achievement unlocks, one per (uuid, achievement) with the earliest time and how many rows it stood for. */
  unlockGroups(table: string): AsyncGenerator<SourceRow[]> {
    return this.keyset(
      (after: [string, string] | undefined) =>
        this.query(
          `SELECT uuid, achievementid, MIN(created_at) AS created_at, COUNT(*) AS copies FROM ${quoteName(table)} ` +
            `${after ? 'WHERE (uuid, achievementid) > (?, ?) ' : ''}GROUP BY uuid, achievementid ORDER BY uuid, achievementid LIMIT ${SOURCE_PAGE_SIZE}`,
          after ?? [],
        ),
      (last): [string, string] => [String(last.uuid), String(last.achievementid)],
    );
  }

  /**
   * Pages by key (each page starts after the last key of the one before, so every read uses the
   * index). The next page is read while the importer writes the current one: the source and the
   * target work at once instead of in turn (docs/moving-from-original.md, "Figures").
   */
  private async *keyset<K>(read: (after: K | undefined) => Promise<SourceRow[]>, keyOf: (last: SourceRow) => K): AsyncGenerator<SourceRow[]> {
    let next = read(undefined);
    for (;;) {
      const rows = await next;
      const full = rows.length === SOURCE_PAGE_SIZE;
      if (full) {
        next = read(keyOf(rows[rows.length - 1]));
        // Awaited on the next turn; until then a failure (source gone) must not count as unhandled.
        next.catch(() => undefined);
      }
      if (rows.length > 0) {
        yield rows;
      }
      if (!full) {
        return;
      }
    }
  }

  /** The uuid of the newest login row with that game id (owners recorded only by name). */
  async uuidOfNewestLogin(player: string): Promise<string | null> {
    const rows = await this.query('SELECT uuid FROM login WHERE player = ? ORDER BY id DESC LIMIT 1', [player]);
    return rows[0]?.uuid === undefined || rows[0].uuid === null ? null : String(rows[0].uuid);
  }

  async close(): Promise<void> {
    await this.connection.end().catch(() => undefined);
  }

  private async query(sql: string, parameters: unknown[]): Promise<SourceRow[]> {
    try {
      const [rows] = await this.connection.query<RowDataPacket[]>(sql, parameters);
      return rows;
    } catch (error) {
      throw new SourceError(describeSourceFailure(error, this.where));
    }
  }
}
