/**
 * How a span of play is counted (docs/game-server.md, "Play time"): split at midnight in the
 * community's time zone for the daily heatmap, and by era for the era totals. Times are whole
 * seconds since the epoch (reports are truncated to the second before they are counted, so sums
 * stay exact). Pure functions, no framework imports.
 */

import { zoneOffsetSeconds } from '../common/time/zone-offset';

/** A day's play is at most a day, however many sessions overlap (the heatmap's cap). */
export const DAY_CAP_SECONDS = 86_400;

/** An era as the counting sees it: play in [start, end) in whole seconds; null is open. */
export interface EraSpan {
  key: string;
  start: Date | null;
  end: Date | null;
}

/** Whole seconds since the epoch of a Date (the fraction dropped). */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** `YYYY-MM-DD`: the day an instant (epoch seconds) falls on in `timeZone`. */
export function dayOf(seconds: number, timeZone: string): string {
  return new Date((seconds + zoneOffsetSeconds(seconds, timeZone)) * 1000).toISOString().slice(0, 10);
}

/**
 * The first instant after `seconds` that falls on a later day in `timeZone`: the next local
 * midnight (or, where a clock change skips midnight, the instant the day begins).
 */
export function nextDayStart(seconds: number, timeZone: string): number {
  const midnightAsUtc = (Math.floor((seconds + zoneOffsetSeconds(seconds, timeZone)) / 86_400) + 1) * 86_400;
  // The offset at the next midnight may differ from now (a clock change): settle it twice.
  let candidate = midnightAsUtc - zoneOffsetSeconds(seconds, timeZone);
  candidate = midnightAsUtc - zoneOffsetSeconds(candidate, timeZone);
  const today = dayOf(seconds, timeZone);
  // Where the clock changes around midnight the estimate can miss: bracket the day's end, then bisect.
  let low = seconds;
  let high = Math.max(candidate, seconds + 1);
  while (dayOf(high, timeZone) === today) {
    low = high;
    high += 3_600;
  }
  if (high - 1 > low && dayOf(high - 1, timeZone) === today) {
    return high;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (dayOf(middle, timeZone) === today) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return high;
}

/** Seconds of [from, to) on each day in `timeZone`, oldest first (a span across midnight is split there). */
export function splitByDay(from: number, to: number, timeZone: string): Array<{ day: string; seconds: number }> {
  const days: Array<{ day: string; seconds: number }> = [];
  let cursor = from;
  while (cursor < to) {
    const next = Math.min(nextDayStart(cursor, timeZone), to);
    const day = dayOf(cursor, timeZone);
    const last = days[days.length - 1];
    if (last?.day === day) {
      last.seconds += next - cursor;
    } else {
      days.push({ day, seconds: next - cursor });
    }
    cursor = next;
  }
  return days;
}

function edge(date: Date | null): number | null {
  return date === null ? null : Math.floor(date.getTime() / 1000);
}

/**
 * The era play at `at` counts in: the first whose span holds it, else the last one. An era
 * without dates has no span (the defaults: every era undated, so all play is the last era's);
 * one open on a side reaches that far.
 */
export function eraAt(at: number, eras: readonly EraSpan[]): string {
  const found = eras.find((era) => {
    const start = edge(era.start);
    const end = edge(era.end);
    return (start !== null || end !== null) && (start === null || start <= at) && (end === null || at < end);
  });
  return (found ?? eras[eras.length - 1]).key;
}

/** Seconds of [from, to) in each era (eras without play left out), in the order of `eras`. */
export function splitByEra(from: number, to: number, eras: readonly EraSpan[]): Array<{ era: string; seconds: number }> {
  if (to <= from || eras.length === 0) {
    return [];
  }
  const cuts = new Set<number>([from, to]);
  for (const era of eras) {
    for (const at of [edge(era.start), edge(era.end)]) {
      if (at !== null && at > from && at < to) {
        cuts.add(at);
      }
    }
  }
  const points = [...cuts].sort((a, b) => a - b);
  const totals = new Map<string, number>();
  for (let index = 0; index + 1 < points.length; index += 1) {
    const key = eraAt(points[index], eras);
    totals.set(key, (totals.get(key) ?? 0) + points[index + 1] - points[index]);
  }
  return eras.filter((era) => totals.has(era.key)).map((era) => ({ era: era.key, seconds: totals.get(era.key)! }));
}
