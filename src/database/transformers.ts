import type { ValueTransformer } from 'typeorm';

/**
 * A DATETIME(3) column as a row holds it: better-sqlite3 hands back TypeORM's stored text
 * ("2026-11-22 03:04:05.000", UTC), mysql2 a Date (the pool runs in UTC). Row types say so with
 * this one name, and the repository's mapper turns it into a Date (`dateOf`) or ISO text (`isoTime`).
 */
export type DbTime = Date | string;

/**
 * A DATETIME(3) column as ISO 8601 UTC. better-sqlite3 hands back TypeORM's stored text
 * ("2026-11-22 03:04:05.000", UTC); mysql2 hands back a Date (the pool runs in UTC).
 */
export function isoTime(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) {
    return null;
  }
  if (value instanceof Date) {
    return value.toISOString();
  }
  return value.includes('T') ? new Date(value).toISOString() : `${value.replace(' ', 'T')}Z`;
}

/** A DATETIME(3) column as a Date (same inputs as isoTime). */
export function dateOf(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value.includes('T') ? value : `${value.replace(' ', 'T')}Z`);
}

/** DATETIME(3) columns hold UTC; the drivers hand back text or a Date, entities always get a Date. */
export const utcDate: ValueTransformer = {
  to: (value: Date | null | undefined) => value,
  from: (value: Date | string | null | undefined) => (value === null || value === undefined ? null : dateOf(value)),
};
