import type { DatabaseKind } from './backup-format';

/** A table as the database describes it. */
export interface TableSchema {
  name: string;
  columns: Array<{ name: string; declared: string; nullable: boolean }>;
  primaryKey: string[];
}

/**
 * Read access to one database at one moment: the backup's source (one consistent snapshot), or
 * a restore's scratch copy when it is checked against the manifest.
 */
export interface DatabaseReader {
  readonly kind: DatabaseKind;
  tables(): Promise<TableSchema[]>;
  /** Applied migrations, oldest first (empty when the database has none). */
  migrations(): Promise<string[]>;
  /** The table's rows, streamed, values in the order of `columns`. */
  rows(table: string, columns: string[]): AsyncIterable<unknown[]>;
  close(): Promise<void>;
}

/** Where a restore loads rows: the scratch copy. */
export interface RowWriter {
  /** Removes every row (the migrations' seed rows come back from the backup). */
  clear(table: string): Promise<void>;
  /** Inserts the rows; those the database refuses come back by index, with a reason (nothing else is written for them). */
  insert(table: string, columns: string[], rows: unknown[][]): Promise<Array<{ index: number; reason: string }>>;
}

export function quoteSqlite(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteMysql(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
