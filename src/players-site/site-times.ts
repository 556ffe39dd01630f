/**
 * How the players site shows times (docs/players-site.md, "Times, durations, eras and vote rewards"): wall-clock strings
 * in the community's time zone, durations as `X日Y時間Z分W秒`, and "how long ago" as a calendar
 * difference. Pure functions, no framework imports.
 */

import { wallClockParts } from '../common/time/zone-offset';

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const two = (value: number): string => String(value).padStart(2, '0');

/**
 * `YYYY-MM-DD HH:mm:ss` as a clock on the wall of `timeZone` shows `date`, through the zone's cached
 * offset (Intl per instant cost about 5 µs, and a login list shows 100).
 */
export function wallClock(date: Date, timeZone: string): string {
  const { year, month, day, hour, minute, second } = wallClockParts(date, timeZone);
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}:${two(second)}`;
}

/**
 * A duration for people: `X日Y時間Z分W秒`, the leading parts that are zero left out (`3時間0分5秒`),
 * `0秒` for nothing. Whole seconds; a fraction is dropped, a negative counts as nothing.
 */
export function durationText(totalSeconds: number): string {
  let rest = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const hours = Math.floor(rest / 3_600);
  rest -= hours * 3_600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const parts: Array<[number, string]> = [
    [days, '日'],
    [hours, '時間'],
    [minutes, '分'],
    [seconds, '秒'],
  ];
  const first = parts.findIndex(([value]) => value > 0);
  return first === -1 ? '0秒' : parts.slice(first).map(([value, unit]) => `${value}${unit}`).join('');
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `date` moved by whole months, its day kept or, past the month's end, the month's last day. */
function addMonths({ year, month, day }: CalendarDate, months: number): CalendarDate {
  const index = year * 12 + (month - 1) + months;
  const target = { year: Math.floor(index / 12), month: (index % 12) + 1 };
  return { ...target, day: Math.min(day, daysInMonth(target.year, target.month)) };
}

function dayNumber({ year, month, day }: CalendarDate): number {
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/**
 * "How long ago" (the site appends 前): the calendar difference from `then` to `now` in
 * `timeZone`, in years, months and days, the leading parts that are zero left out: `1年2か月3日`,
 * `2か月0日`, `0日` for today (or a `then` after `now`). Whole months are counted first, as far
 * as they go (Jan 31 + 1 month is the last day of February), then the days that remain.
 */
export function timeAgoText(then: Date, now: Date, timeZone: string): string {
  const from = wallClockParts(then, timeZone);
  const to = wallClockParts(now, timeZone);
  if (dayNumber(from) >= dayNumber(to)) {
    return '0日';
  }
  let months = (to.year - from.year) * 12 + (to.month - from.month);
  while (months > 0 && dayNumber(addMonths(from, months)) > dayNumber(to)) {
    months -= 1;
  }
  const days = dayNumber(to) - dayNumber(addMonths(from, months));
  const years = Math.floor(months / 12);
  const remainingMonths = months % 12;
  if (years > 0) {
    return `${years}年${remainingMonths}か月${days}日`;
  }
  return remainingMonths > 0 ? `${remainingMonths}か月${days}日` : `${days}日`;
}
