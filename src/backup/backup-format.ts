import { createHash } from 'node:crypto';

/**
 * The portable backup file (docs/backup-and-restore.md, The backup file). One gzip stream of
 * newline-separated JSON, written as two gzip members so the manifest can come first although
 * the row counts and checksums are known only once every row has been read:
 *
 *   {manifest}                      the first line: what the file holds
 *   {"table":"players"}             then, for each table of the manifest in its order,
 *   ["0f…",  "Alice", …]            one line per row: the values in the manifest's column order
 *   {"end":true}                    the last line: a file cut anywhere is recognised as such
 *
 * Values are written by their logical type, the same from either database, so a row read back
 * from SQLite or MariaDB after a restore encodes to the same line and the same checksum.
 */
export const BACKUP_FORMAT = 'community-service-backup';
export const BACKUP_FORMAT_VERSION = 1;

export type LogicalType = 'integer' | 'real' | 'boolean' | 'datetime' | 'text' | 'blob';
export type DatabaseKind = 'sqlite' | 'mysql';

export interface BackupColumn {
  name: string;
  type: LogicalType;
  nullable: boolean;
}

export interface BackupTable {
  name: string;
  columns: BackupColumn[];
  /** The primary key's columns: how a problem row is named ("players uuid=…"). */
  primaryKey: string[];
  rows: number;
  /** sha256-sum of the table's row lines (rowDigest): the same whatever order the rows come in. */
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  serviceVersion: string;
  /** Every migration applied to the source, oldest first; the last one is its schema's level. */
  migrations: string[];
  lastMigration: string | null;
  source: DatabaseKind;
  createdAt: string;
  tables: BackupTable[];
}

/** A value as it stands in a row line. */
export type PortableValue = string | number | boolean | null;

/** The logical type of a column from its declared type, as either database reports it. */
export function logicalTypeOf(declared: string): LogicalType {
  const type = declared.toLowerCase();
  if (type === 'boolean' || type.startsWith('tinyint') || type === 'bool') {
    return 'boolean';
  }
  if (type.includes('int')) {
    return 'integer';
  }
  if (/double|real|float|decimal|numeric/.test(type)) {
    return 'real';
  }
  if (/datetime|timestamp/.test(type)) {
    return 'datetime';
  }
  if (/blob|binary/.test(type)) {
    return 'blob';
  }
  return 'text';
}

const SQL_TIME = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(\.\d{1,6})?Z?$/;

/** A DATETIME as ISO 8601 UTC with milliseconds, from SQLite's stored text or MariaDB's. */
function isoTime(value: string): string {
  const match = SQL_TIME.exec(value);
  if (!match) {
    return value;
  }
  const fraction = (match[3] ?? '.000').slice(1).padEnd(3, '0').slice(0, 3);
  return `${match[1]}T${match[2]}.${fraction}Z`;
}

function integerValue(value: bigint | number | string): PortableValue {
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  if (typeof value === 'string') {
    if (/^-?\d+$/.test(value)) {
      const number = Number(value);
      return Number.isSafeInteger(number) ? number : BigInt(value).toString();
    }
    return value;
  }
  return realValue(value);
}

function realValue(value: number): PortableValue {
  // JSON has no Infinity or NaN: they travel as text, which only SQLite can hold again.
  return Number.isFinite(value) ? value : String(value);
}

/**
 * A value read from either driver (better-sqlite3 with safe integers, mysql2 with date and big
 * number strings) as it is written to the file.
 */
export function encodeValue(type: LogicalType, value: unknown): PortableValue {
  /* eslint-disable @typescript-eslint/no-base-to-string -- objects are refused above; what is left is a scalar */
  if (value === null || value === undefined) {
    return null;
  }
  if (typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    throw new Error(`a ${type} value the drivers never return: ${JSON.stringify(value)}`);
  }
  if (Buffer.isBuffer(value)) {
    return type === 'text' ? value.toString('utf8') : value.toString('base64');
  }
  switch (type) {
    case 'integer':
      return typeof value === 'bigint' || typeof value === 'number' || typeof value === 'string' ? integerValue(value) : String(value);
    case 'real':
      return typeof value === 'number' ? realValue(value) : typeof value === 'bigint' ? integerValue(value) : String(value);
    case 'boolean':
      return value === true || value === 1 || value === 1n || value === '1';
    case 'datetime':
      return value instanceof Date ? value.toISOString() : isoTime(String(value));
    case 'blob':
      return Buffer.from(String(value), 'utf8').toString('base64');
    case 'text':
      return typeof value === 'string' ? value : String(value);
  }
  /* eslint-enable @typescript-eslint/no-base-to-string */
}

/** A value from the file as it is bound into an INSERT on either database. */
export function decodeValue(type: LogicalType, value: PortableValue): string | number | bigint | Buffer | null {
  if (value === null) {
    return null;
  }
  switch (type) {
    case 'boolean':
      return value === true ? 1 : 0;
    case 'datetime':
      return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value) ? value.slice(0, 23).replace('T', ' ') : String(value);
    case 'blob':
      return Buffer.from(String(value), 'base64');
    case 'integer':
      return typeof value === 'string' && /^-?\d+$/.test(value) ? BigInt(value) : typeof value === 'boolean' ? Number(value) : value;
    case 'real':
      return typeof value === 'string' && /^(-?Infinity|NaN)$/.test(value) ? Number(value) : typeof value === 'boolean' ? Number(value) : value;
    case 'text':
      return typeof value === 'string' ? value : String(value);
  }
}

/** A row's line in the file (without its newline). */
export function rowLine(values: PortableValue[]): string {
  return JSON.stringify(values);
}

/**
 * The checksum of a table: the sum, modulo 2^256, of the sha256 of each row line. A sum rather
 * than one hash over the stream because the databases order text keys differently (SQLite by
 * bytes, MariaDB by collation): the same rows give the same checksum in any order, and any
 * changed, missing or extra row changes it. Added as eight 32-bit words with carries (a BigInt
 * per row costs more than the hash).
 */
export class TableDigest {
  private readonly words = new Array<number>(8).fill(0);
  rows = 0;

  add(line: string): void {
    const hash = createHash('sha256').update(line).digest();
    let carry = 0;
    for (let index = 7; index >= 0; index -= 1) {
      const sum = this.words[index] + hash.readUInt32BE(index * 4) + carry;
      carry = sum >= 0x1_0000_0000 ? 1 : 0;
      this.words[index] = sum - carry * 0x1_0000_0000;
    }
    this.rows += 1;
  }

  get hex(): string {
    return this.words.map((word) => word.toString(16).padStart(8, '0')).join('');
  }
}

/** A problem row named the way the operator finds it: "players uuid=… column mcid". */
export function rowName(table: BackupTable, values: PortableValue[]): string {
  const key = table.primaryKey.length > 0 ? table.primaryKey : [table.columns[0].name];
  return `${table.name} ${key.map((name) => `${name}=${String(values[table.columns.findIndex((column) => column.name === name)])}`).join(' ')}`;
}
