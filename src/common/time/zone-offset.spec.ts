import { wallClockParts } from './zone-offset';

describe(wallClockParts.name, () => {
  it.each(['Asia/Tokyo', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'])(
    '%s: the same wall clock as Intl, clock changes included, over two years by the 67 minutes 13 seconds',
    (zone) => {
      const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
      const mismatches: string[] = [];
      const start = Date.UTC(2025, 0, 1);
      for (let at = start; at < start + 2 * 366 * 86_400_000; at += 4_033_000) {
        const date = new Date(at);
        const intl = Object.fromEntries(format.formatToParts(date).filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]));
        const ours = wallClockParts(date, zone);
        if ((['year', 'month', 'day', 'hour', 'minute', 'second'] as const).some((part) => ours[part] !== intl[part])) {
          mismatches.push(date.toISOString());
        }
      }
      expect(mismatches).toEqual([]);
    },
  );
});
