import { type EraSpan, splitByDay, splitByEra } from './play-spans';

/** A stretch of a player's play, [from, to) in whole epoch seconds. */
export interface PlaySpan {
  uuid: string;
  from: number;
  to: number;
}

export interface PlayTally {
  /** Seconds per player and day, before the daily cap (the database applies it to the stored sum). */
  days: Array<{ uuid: string; day: string; seconds: number }>;
  /** Seconds per player and era (empty when eras were not asked for). */
  eras: Array<{ uuid: string; era: string; seconds: number }>;
}

/**
 * Sums stretches of play per player and day (in `timeZone`) and, given `eras`, per player and
 * era: one row per key, so a batch writes each row once. Pure.
 */
export function tallyPlay(spans: readonly PlaySpan[], timeZone: string, eras: readonly EraSpan[] | null): PlayTally {
  const days = new Map<string, { uuid: string; day: string; seconds: number }>();
  const totals = new Map<string, { uuid: string; era: string; seconds: number }>();
  for (const span of spans) {
    for (const { day, seconds } of splitByDay(span.from, span.to, timeZone)) {
      const key = `${span.uuid}|${day}`;
      const row = days.get(key) ?? { uuid: span.uuid, day, seconds: 0 };
      row.seconds += seconds;
      days.set(key, row);
    }
    for (const { era, seconds } of eras ? splitByEra(span.from, span.to, eras) : []) {
      const key = `${span.uuid}|${era}`;
      const row = totals.get(key) ?? { uuid: span.uuid, era, seconds: 0 };
      row.seconds += seconds;
      totals.set(key, row);
    }
  }
  return { days: [...days.values()], eras: [...totals.values()] };
}
