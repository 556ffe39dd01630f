import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { DATETIME_COLUMN_MAX, DATETIME_COLUMN_MIN, fitsTimeColumn } from '../common/column-limits';
import { MCID_PATTERN, normaliseUuid } from '../common/identifiers';
import type { LoginInput } from './login-batch';
import { parseTimestamp } from './timestamp';

/** Reading historical login exports (`import:logins`): CSV with a header, or JSON Lines. No Nest imports. */

export type ImportFormat = 'csv' | 'jsonl';

export const CSV_COLUMNS = ['uuid', 'mcid', 'loggedInAt', 'permission'] as const;

/** One data line of the file: a valid record, or the reason it is not one. */
export type ImportRow = { line: number; record: LoginInput } | { line: number; reason: string };

export function detectFormat(path: string): ImportFormat | undefined {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) {
    return 'csv';
  }
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) {
    return 'jsonl';
  }
  return undefined;
}

/** Validates one exported record; returns the reason when it is not usable. */
export function toLoginInput(raw: unknown): LoginInput | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return 'not an object';
  }
  const { uuid, mcid, loggedInAt, permission } = raw as Record<string, unknown>;
  const normalised = typeof uuid === 'string' ? normaliseUuid(uuid.trim()) : undefined;
  if (!normalised) {
    return 'uuid must be a game UUID';
  }
  if (typeof mcid !== 'string' || !MCID_PATTERN.test(mcid.trim())) {
    return 'mcid must be 1-16 letters, digits or underscores';
  }
  const time = typeof loggedInAt === 'number' && Number.isSafeInteger(loggedInAt) ? new Date(loggedInAt) : parseTimestamp(typeof loggedInAt === 'string' ? loggedInAt.trim() : loggedInAt);
  if (!time || Number.isNaN(time.getTime())) {
    return 'loggedInAt must be an ISO 8601 timestamp with a time zone (or epoch milliseconds in JSON)';
  }
  // As for the game server's batches: a time no datetime column holds on both databases is refused here, not by the database.
  if (!fitsTimeColumn(time)) {
    return `loggedInAt must be from ${DATETIME_COLUMN_MIN.toISOString()} to ${DATETIME_COLUMN_MAX.toISOString()} (UTC)`;
  }
  if (permission !== undefined && permission !== null && typeof permission !== 'string') {
    return 'permission must be a string';
  }
  const group = typeof permission === 'string' ? permission.trim() : '';
  if (group.length > 64) {
    return 'permission must be at most 64 characters';
  }
  return { uuid: normalised, mcid: mcid.trim(), loggedInAt: time, permission: group === '' ? null : group };
}

/** Reads the stream record by record (never the whole file), numbering lines from 1. */
export function readLoginRows(input: Readable, format: ImportFormat): AsyncGenerator<ImportRow> {
  return format === 'csv' ? readCsv(input) : readJsonLines(input);
}

async function* readCsv(input: Readable): AsyncGenerator<ImportRow> {
  const parser = input.pipe(
    parse({
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      columns: (header: string[]) => {
        const names = header.map((name) => name.trim());
        const missing = CSV_COLUMNS.filter((name) => name !== 'permission' && !names.includes(name));
        if (missing.length > 0) {
          throw new ImportFormatError(`The CSV header must name ${CSV_COLUMNS.join(',')}; missing: ${missing.join(', ')}.`);
        }
        return names;
      },
    }),
  );
  for await (const entry of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    const result = toLoginInput(entry.record);
    yield typeof result === 'string' ? { line: entry.info.lines, reason: result } : { line: entry.info.lines, record: result };
  }
}

async function* readJsonLines(input: Readable): AsyncGenerator<ImportRow> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    const trimmed = text.trim();
    if (trimmed === '') {
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      yield { line, reason: 'not valid JSON' };
      continue;
    }
    const result = toLoginInput(parsed);
    yield typeof result === 'string' ? { line, reason: result } : { line, record: result };
  }
}

/** The file as a whole cannot be read (wrong header); the import stops. */
export class ImportFormatError extends Error {}
