/**
 * A time zone's offset from UTC at an instant, measured by Intl once per zone and quarter of an
 * hour, and the wall clock built from it. Pure, no framework imports.
 */

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    dayFormats.set(timeZone, format);
  }
  return format;
}

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localTime(seconds: number, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of dayFormat(timeZone).formatToParts(new Date(seconds * 1000))) {
    if (part.type !== 'literal') {
      parts[part.type] = Number(part.value);
    }
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/**
 * Offsets are measured once per zone and quarter of an hour (clock changes fall on quarter hours
 * in UTC): asking Intl for every instant made counting a million imported sessions take minutes.
 */
const OFFSET_BUCKET_SECONDS = 900;
/** Quarter hours kept per zone (about five years); past it the zone's cache starts again. */
const OFFSET_CACHE_LIMIT = 200_000;
const offsetCaches = new Map<string, Map<number, number>>();

/** The zone's offset from UTC at an instant, in seconds (local minus UTC). */
export function zoneOffsetSeconds(seconds: number, timeZone: string): number {
  let cache = offsetCaches.get(timeZone);
  if (!cache) {
    cache = new Map();
    offsetCaches.set(timeZone, cache);
  }
  const bucket = Math.floor(seconds / OFFSET_BUCKET_SECONDS);
  let offset = cache.get(bucket);
  if (offset === undefined) {
    const at = bucket * OFFSET_BUCKET_SECONDS;
    const local = localTime(at, timeZone);
    offset = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second) / 1000 - at;
    if (cache.size >= OFFSET_CACHE_LIMIT) {
      cache.clear();
    }
    cache.set(bucket, offset);
  }
  return offset;
}

/** The date and time a clock on the wall of `timeZone` shows at `date` (whole seconds). */
export function wallClockParts(date: Date, timeZone: string): LocalTime {
  const seconds = Math.floor(date.getTime() / 1000);
  const local = new Date((seconds + zoneOffsetSeconds(seconds, timeZone)) * 1000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

/**
 * ISO 8601 with the zone's offset at that instant, whole seconds (`2022-01-02T03:04:05+09:00`):
 * the bans site's times (docs/bans-site.md, "Times").
 */
export function isoWithOffset(date: Date, timeZone: string): string {
  const seconds = Math.floor(date.getTime() / 1000);
  const offset = zoneOffsetSeconds(seconds, timeZone);
  const local = new Date((seconds + offset) * 1000);
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / 60;
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(minutes / 60))}:${pad(Math.round(minutes % 60))}`
  );
}
