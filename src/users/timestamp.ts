/** Timestamps the game server sends: ISO 8601 with a date, a time and a zone. Pure, no framework imports. */

export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The instant, or undefined when the text is not an ISO 8601 timestamp with a zone or names no real time. */
export function parseTimestamp(raw: unknown): Date | undefined {
  if (typeof raw !== 'string' || !TIMESTAMP_PATTERN.test(raw)) {
    return undefined;
  }
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) {
    return undefined;
  }
  // `Date` rolls 2019-02-30 over to March; a calendar date that does not exist is rejected instead.
  const [year, month, day] = raw.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    return undefined;
  }
  return date;
}
