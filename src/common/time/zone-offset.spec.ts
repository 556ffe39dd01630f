import { wallClockParts } from './zone-offset';

/** What Intl says directly, for comparison. */
function intlParts(date: Date, timeZone: string): Record<string, number> {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  return Object.fromEntries(format.formatToParts(date).filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]));
}

describe(wallClockParts.name, () => {
  it.each(['Asia/Tokyo', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'])(
    '%s: the same wall clock as Intl, clock changes included, over two years by the 7 minutes 13 seconds',
    (zone) => {
      const start = Date.UTC(2025, 0, 1);
      for (let at = start; at < start + 2 * 366 * 86_400_000; at += 433_000) {
        const date = new Date(at);
        expect({ at: date.toISOString(), ...wallClockParts(date, zone) }).toEqual({ at: date.toISOString(), ...intlParts(date, zone) });
      }
    },
  );
});
