import type { ImportReport } from './import-report';
import { UnreadableRow } from './original-mapping';
import type { SourceReader } from './source-reader';
import type { TargetSession } from './target-session';

/**
 * What the target database can hold beyond the column types both share: a MariaDB TEXT column
 * holds 65,535 bytes, SQLite's text has no such bound. Values are checked against these before
 * they are written, so a row the target can't hold is reported and skipped instead of failing a
 * transaction (docs/moving-from-original.md, "Rows the target can't hold").
 */
export interface TargetLimits {
  textBytes: number;
  /** The database's name in messages. */
  database: string;
}

export const MARIADB_LIMITS: TargetLimits = { textBytes: 65_535, database: 'MariaDB' };
export const SQLITE_LIMITS: TargetLimits = { textBytes: 1_000_000_000, database: 'SQLite' };

/** The largest id an INTEGER column holds on both databases (MariaDB's INT). */
export const MAX_TARGET_ID = 2_147_483_647;

/** One run's shared state: where it reads and writes, and what earlier tables made of their rows. */
export interface Run {
  source: SourceReader;
  target: TargetSession;
  report: ImportReport;
  /** Minutes east of UTC of the source's wall clock. */
  offset: number;
  limits: TargetLimits;
  /** Source city id (as text) → the city here, for every city imported or already imported. */
  cities: Map<string, number>;
  /** Source achievement id (as text) → the achievement here. */
  achievements: Map<string, number>;
  /** `table#id` of each record skipped, with why: rows that belong to it are skipped with it. */
  skipped: Map<string, string>;
}

/** Remembers a skipped record, so the rows that belong to it are skipped with the same reason. */
export function skipRecord(run: Run, table: string, id: number | string | null, reason: string): void {
  run.report.skip(table, id, reason);
  if (id !== null) {
    run.skipped.set(`${table}#${String(id)}`, reason);
  }
}

/** Why a record this row belongs to was not imported, or undefined. */
export function skippedOwner(run: Run, table: string, id: string | null): string | undefined {
  return id === null ? undefined : run.skipped.get(`${table}#${id}`);
}

/** A text value the target can hold; throws UnreadableRow naming the column otherwise. */
export function fitText(limits: TargetLimits, column: string, value: string | null): string | null {
  if (value !== null) {
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > limits.textBytes) {
      throw new UnreadableRow(`${column} is ${bytes} bytes, over the ${limits.textBytes} a text column holds on ${limits.database}`);
    }
  }
  return value;
}
