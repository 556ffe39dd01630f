/** What a column holds on both databases (SQLite and MariaDB). Pure: no framework imports, for the importers too. */

/**
 * The largest value an `integer` column holds on both databases: MariaDB's INT is signed 32-bit
 * (SQLite's INTEGER is 64-bit, but a value must fit wherever the data may move). Past it, MariaDB
 * refused the write (a 500), and a number like 1e308, an "integer" to JavaScript, was stored by
 * SQLite as a REAL and refused as a key.
 */
export const INT_COLUMN_MAX = 2_147_483_647;

/**
 * The instants a `datetime` column holds on both databases, to the millisecond: MariaDB's DATETIME
 * is documented from year 1000 to 9999 (a later one is refused, a 500; earlier years are stored
 * but not supported), and SQLite keeps TypeORM's text `YYYY-MM-DD HH:MM:SS.mmm`, whose four-digit
 * year cannot hold 10000 (written as `10000-…`, read back as year 0) nor a year before 0.
 */
export const DATETIME_COLUMN_MIN = new Date('1000-01-01T00:00:00.000Z');
export const DATETIME_COLUMN_MAX = new Date('9999-12-31T23:59:59.999Z');

/** A Date a `datetime` column stores as it is on either database (anything else is left to other rules). */
export function fitsTimeColumn(value: unknown): boolean {
  if (!(value instanceof Date)) {
    return true;
  }
  const time = value.getTime();
  return time >= DATETIME_COLUMN_MIN.getTime() && time <= DATETIME_COLUMN_MAX.getTime();
}
