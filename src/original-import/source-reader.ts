import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';
import type { SourceRow, SourceValue } from './original-mapping';
import type { IdentityPlan } from './row-identity';
import { SourceAddress, SourceError } from './source-url';

export { SourceError } from './source-url';

/** Rows per page at most (PAGE_BYTES bounds a page too): a page is all the importer holds of a table at once. */
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
      return `The source database at ${where} refused the user name or password: check the credentials (the user in --from; the password in ORIGINAL_DB_PASSWORD, --password-file or --from).`;
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

/** How a table is paged: by a unique key where it has one, else by position in one snapshot. */
interface TablePaging {
  /** Columns of the primary key, or of a unique key over NOT NULL columns; empty when there is none. */
  key: string[];
  /** Upper bound of one row's bytes over the selected columns, from the column types (Infinity for long texts). */
  columnBytes: Map<string, number>;
}

/** Bytes of source rows one page may hold at most (with the page read ahead, twice this is in memory). */
export const PAGE_BYTES = 16 * 1024 * 1024;

/**
 * A read-only session on the original database, in one consistent snapshot for the whole run. Its
 * time zone is the source's (`--source-time-zone`), so DATETIME and TIMESTAMP columns both come
 * back as the same wall-clock text. Tables are read in pages bounded by rows and by bytes.
 */
export class SourceReader {
  private constructor(
    private readonly connection: Connection,
    /** Column names by table, as this installation has them. */
    private readonly layout: Map<string, Set<string>>,
    /** DATETIME and TIMESTAMP columns by table, in the table's column order. */
    private readonly timeColumns: Map<string, string[]>,
    private readonly paging: Map<string, TablePaging>,
    readonly where: string,
  ) {}

  static async open(address: SourceAddress, zone: string): Promise<SourceReader> {
    const { where } = address;
    let connection: Connection;
    try {
      connection = await createConnection({
        host: address.host,
        port: address.port,
        user: address.user,
        password: address.password,
        database: address.database,
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
      // Paging by position orders by whole values: no long text may compare equal by its prefix.
      await connection.query('SET SESSION max_sort_length = 8388608');
      // Read-only for this session and one consistent snapshot for the whole run.
      await connection.query('SET SESSION TRANSACTION READ ONLY');
      await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      const [columns] = await connection.query<RowDataPacket[]>(
        'SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName, DATA_TYPE AS dataType, CHARACTER_OCTET_LENGTH AS octets, IS_NULLABLE AS nullable ' +
          'FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION',
      );
      const [indexes] = await connection.query<RowDataPacket[]>(
        'SELECT TABLE_NAME AS tableName, INDEX_NAME AS indexName, COLUMN_NAME AS columnName, NON_UNIQUE AS nonUnique, SEQ_IN_INDEX AS seq ' +
          'FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX',
      );
      const layout = new Map<string, Set<string>>();
      const timeColumns = new Map<string, string[]>();
      const paging = new Map<string, TablePaging>();
      const notNull = new Set<string>();
      for (const row of columns) {
        const table = String(row.tableName);
        const column = String(row.columnName);
        layout.set(table, (layout.get(table) ?? new Set()).add(column));
        if (['datetime', 'timestamp'].includes(String(row.dataType).toLowerCase())) {
          timeColumns.set(table, [...(timeColumns.get(table) ?? []), column]);
        }
        const entry = paging.get(table) ?? { key: [], columnBytes: new Map() };
        entry.columnBytes.set(column, row.octets === null ? 64 : Number(row.octets) > 1_000_000 ? Infinity : Number(row.octets));
        paging.set(table, entry);
        if (String(row.nullable) === 'NO') {
          notNull.add(`${table}.${column}`);
        }
      }
      const keys = new Map<string, Map<string, string[]>>();
      for (const row of indexes) {
        if (Number(row.nonUnique) !== 0) {
          continue;
        }
        const byIndex = keys.get(String(row.tableName)) ?? new Map<string, string[]>();
        byIndex.set(String(row.indexName), [...(byIndex.get(String(row.indexName)) ?? []), String(row.columnName)]);
        keys.set(String(row.tableName), byIndex);
      }
      for (const [table, byIndex] of keys) {
        const usable = [...byIndex.entries()].filter(([, key]) => key.every((column) => notNull.has(`${table}.${column}`)));
        const chosen = usable.find(([name]) => name === 'PRIMARY') ?? usable[0];
        const entry = paging.get(table);
        if (chosen && entry) {
          entry.key = chosen[1];
        }
      }
      return new SourceReader(connection, layout, timeColumns, paging, where);
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

  /** The first of the wanted columns the table has, else its first DATETIME or TIMESTAMP column; undefined when it has none. */
  timeColumnOf(table: string, preferred: readonly string[]): string | undefined {
    return preferred.find((column) => this.hasColumn(table, column)) ?? this.timeColumns.get(table)?.[0];
  }

  /** The wanted columns this installation has (the others are read as missing). */
  columnsOf(table: string, wanted: readonly string[]): string[] {
    return wanted.filter((column) => this.hasColumn(table, column));
  }

  async count(table: string, where = '1 = 1'): Promise<number> {
    return Number((await this.query(`SELECT COUNT(*) AS n FROM ${quoteName(table)} WHERE ${where}`, []))[0]?.n ?? 0);
  }

  /** Rows matching `where` with only the given columns (small sets: the pending requests). */
  async select(table: string, wanted: readonly string[], where: string): Promise<SourceRow[]> {
    const columns = ['id', ...this.columnsOf(table, wanted).filter((column) => column !== 'id')].map(quoteName).join(', ');
    return this.query(`SELECT ${columns} FROM ${quoteName(table)} WHERE ${where}`, []);
  }

  /**
   * Every row of a table, in pages ordered by `id` (ascending or descending). A table with a
   * unique key is paged by that key (each page starts after the last key of the one before, using
   * the index); one without is paged by position, ordered by every column read, byte for byte:
   * both see one snapshot, so no row is read twice or missed whatever its id (repeated, negative,
   * zero, not a number). Pages hold SOURCE_PAGE_SIZE rows and PAGE_BYTES at most.
   */
  pages(table: string, wanted: readonly string[], options: { descending?: boolean; where?: string } = {}): AsyncGenerator<SourceRow[]> {
    const paging = this.paging.get(table) ?? { key: [], columnBytes: new Map<string, number>() };
    const selected = ['id', ...this.columnsOf(table, wanted).filter((column) => column !== 'id')];
    const key = paging.key;
    const direction = options.descending ? 'DESC' : 'ASC';
    // By key from the last page when the unique key leads with `id`; otherwise by position, ordered
    // by `id` and then by the unique key (or, without one, every column read, byte for byte).
    const keyset = key[0] === 'id';
    const tieBreakers = key.length > 0 ? key.filter((column) => column !== 'id').map(quoteName) : selected.filter((column) => column !== 'id').map((column) => `CAST(${quoteName(column)} AS BINARY)`);
    const orderBy = (keyset ? key.map(quoteName) : [quoteName('id'), ...tieBreakers]).map((term) => `${term} ${direction}`).join(', ');
    const columnList = [...new Set([...selected, ...key])].map(quoteName).join(', ');
    const rowBytes = selected.reduce((sum, column) => sum + (paging.columnBytes.get(column) ?? 64), 0);
    const sizeExpression = rowBytes * SOURCE_PAGE_SIZE > PAGE_BYTES
      ? selected.map((column) => `COALESCE(LENGTH(${quoteName(column)}), 0)`).join(' + ')
      : undefined;
    const filter = options.where ? `(${options.where})` : '1 = 1';
    const comparison = options.descending ? '<' : '>';
    return this.paged({
      read: async (after, offset, limit, select) => {
        const afterClause = keyset && after ? ` AND (${key.map(quoteName).join(', ')}) ${comparison} (${key.map(() => '?').join(', ')})` : '';
        const offsetClause = keyset ? '' : ` OFFSET ${offset}`;
        return this.query(
          `SELECT ${select} FROM ${quoteName(table)} WHERE ${filter}${afterClause} ORDER BY ${orderBy} LIMIT ${limit}${offsetClause}`,
          keyset && after ? after : [],
        );
      },
      columns: columnList,
      keyOf: (row) => key.map((column) => row[column] ?? null),
      sizeSelect: sizeExpression === undefined ? undefined : `${key.length > 0 ? key.map(quoteName).join(', ') : '1 AS one'}, ${sizeExpression} AS rowBytes`,
    });
  }

  /**
   * How a table's rows are identified (docs/moving-from-original.md, "Row identity"): its `id`
   * column where it has one, else the source's own unique key, else the first of the table's
   * natural keys it has (`uuid` of a one-row-per-player table), else a hash of every column.
   */
  identityOf(table: string, wanted: readonly string[], naturalKeys: readonly (readonly string[])[] = []): IdentityPlan {
    const sourceKey = this.paging.get(table)?.key ?? [];
    const candidates: Array<readonly string[]> = [['id'], sourceKey, ...naturalKeys];
    const key = candidates.find((columns) => columns.length > 0 && columns.every((column) => this.hasColumn(table, column)));
    if (key === undefined) {
      const every = [...(this.layout.get(table) ?? [])].sort();
      return { key: [], unique: false, columns: every };
    }
    const unique = sourceKey.length === key.length && key.every((column) => sourceKey.includes(column));
    return { key: [...key], unique, columns: [...new Set([...key, ...this.columnsOf(table, wanted)])] };
  }

  /**
   * Every row of a table in pages, in the order of its row identity (`identityOf`). A key the source
   * guarantees unique is paged by that key (each page after the last key of the one before, using
   * the index); any other key is paged by position, ordered by the key, then its bytes, then every
   * other column byte for byte, so rows of one identity are adjacent; a table without a key is
   * ordered by every column byte for byte (identical rows adjacent). One snapshot: no row is read
   * twice or missed. Pages hold SOURCE_PAGE_SIZE rows and PAGE_BYTES at most.
   */
  identityPages(table: string, plan: IdentityPlan, options: { descending?: boolean; thenBy?: readonly string[] } = {}): AsyncGenerator<SourceRow[]> {
    const paging = this.paging.get(table) ?? { key: [], columnBytes: new Map<string, number>() };
    const direction = options.descending ? 'DESC' : 'ASC';
    const binary = (column: string): string => `CAST(${quoteName(column)} AS BINARY)`;
    const keyset = plan.unique;
    const others = plan.columns.filter((column) => !plan.key.includes(column));
    // Rows of one key in the order asked for (the newest first, by a time column), then byte for byte.
    const thenBy = (options.thenBy ?? []).filter((column) => plan.columns.includes(column) && !plan.key.includes(column)).map(quoteName);
    const order = keyset ? plan.key.map(quoteName) : [...plan.key.map(quoteName), ...plan.key.map(binary), ...thenBy, ...others.map(binary)];
    const orderBy = order.map((term) => `${term} ${direction}`).join(', ');
    const columnList = plan.columns.map(quoteName).join(', ');
    const rowBytes = plan.columns.reduce((sum, column) => sum + (paging.columnBytes.get(column) ?? 64), 0);
    const sizeExpression = rowBytes * SOURCE_PAGE_SIZE > PAGE_BYTES ? plan.columns.map((column) => `COALESCE(LENGTH(${quoteName(column)}), 0)`).join(' + ') : undefined;
    const comparison = options.descending ? '<' : '>';
    return this.paged({
      read: (after, offset, limit, select) => {
        const afterClause = keyset && after ? ` WHERE (${plan.key.map(quoteName).join(', ')}) ${comparison} (${plan.key.map(() => '?').join(', ')})` : '';
        const offsetClause = keyset ? '' : ` OFFSET ${offset}`;
        return this.query(`SELECT ${select} FROM ${quoteName(table)}${afterClause} ORDER BY ${orderBy} LIMIT ${limit}${offsetClause}`, keyset && after ? after : []);
      },
      columns: columnList,
      keyOf: (row) => plan.key.map((column) => row[column] ?? null),
      sizeSelect: sizeExpression === undefined ? undefined : `${keyset ? plan.key.map(quoteName).join(', ') : '1 AS one'}, ${sizeExpression} AS rowBytes`,
    });
  }

  /**
   * The achievement unlocks, one per (uuid, achievement) with the earliest time and how many rows
   * it stood for, in pages by position over the groups (unique by the grouping, one snapshot).
   */
  unlockGroups(table: string): AsyncGenerator<SourceRow[]> {
    return this.paged({
      read: (_after, offset, limit, select) =>
        this.query(`SELECT ${select} FROM ${quoteName(table)} GROUP BY uuid, achievementid ORDER BY uuid, achievementid LIMIT ${limit} OFFSET ${offset}`, []),
      columns: 'uuid, achievementid, MIN(created_at) AS created_at, COUNT(*) AS copies',
      keyOf: () => [],
    });
  }

  /**
   * Reads pages one after another. Without a size bound, the next page is read while the importer
   * writes the current one (the source and the target work at once, docs/moving-from-original.md,
   * "Figures"). With one (tables with long texts), each page is first measured: the keys and byte
   * sizes of the next SOURCE_PAGE_SIZE rows, then as many of those rows as fit in PAGE_BYTES.
   */
  private async *paged(plan: {
    read: (after: SourceValue[] | undefined, offset: number, limit: number, select: string) => Promise<SourceRow[]>;
    columns: string;
    keyOf: (last: SourceRow) => SourceValue[];
    sizeSelect?: string;
  }): AsyncGenerator<SourceRow[]> {
    let after: SourceValue[] | undefined;
    let offset = 0;
    const fetch = async (): Promise<{ rows: SourceRow[]; more: boolean }> => {
      let limit = SOURCE_PAGE_SIZE;
      if (plan.sizeSelect) {
        const sizes = await plan.read(after, offset, SOURCE_PAGE_SIZE, plan.sizeSelect);
        if (sizes.length === 0) {
          return { rows: [], more: false };
        }
        let bytes = 0;
        limit = 0;
        for (const size of sizes) {
          bytes += Number(size.rowBytes ?? 0);
          if (limit > 0 && bytes > PAGE_BYTES) {
            break;
          }
          limit += 1;
        }
        const rows = await plan.read(after, offset, limit, plan.columns);
        return { rows, more: sizes.length === SOURCE_PAGE_SIZE || limit < sizes.length };
      }
      const rows = await plan.read(after, offset, limit, plan.columns);
      return { rows, more: rows.length === SOURCE_PAGE_SIZE };
    };
    const advance = (rows: SourceRow[]): void => {
      offset += rows.length;
      if (rows.length > 0) {
        after = plan.keyOf(rows[rows.length - 1]);
      }
    };
    let next = fetch();
    for (;;) {
      const { rows, more } = await next;
      advance(rows);
      if (more && !plan.sizeSelect) {
        next = fetch();
        // Awaited on the next turn; until then a failure (source gone) must not count as unhandled.
        next.catch(() => undefined);
      }
      if (rows.length > 0) {
        yield rows;
      }
      if (!more) {
        return;
      }
      if (plan.sizeSelect) {
        next = fetch();
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
