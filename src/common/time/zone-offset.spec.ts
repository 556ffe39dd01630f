import { isoWithOffset, wallClockParts } from './zone-offset';

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

describe(isoWithOffset.name, () => {
  it('writes the wall clock with the offset in force then, which names the same instant', () => {
    const cases: Array<[string, string, string]> = [
      ['2022-01-01T18:04:05.678Z', 'Asia/Tokyo', '2022-01-02T03:04:05+09:00'],
      ['2025-07-01T12:00:00Z', 'America/New_York', '2025-07-01T08:00:00-04:00'],
      ['2025-01-01T12:00:00Z', 'America/New_York', '2025-01-01T07:00:00-05:00'],
      ['2025-01-01T00:00:00Z', 'Asia/Kathmandu', '2025-01-01T05:45:00+05:45'],
      ['2025-01-01T00:00:00Z', 'UTC', '2025-01-01T00:00:00+00:00'],
    ];
    for (const [instant, zone, expected] of cases) {
      const text = isoWithOffset(new Date(instant), zone);
      expect({ instant, zone, text }).toEqual({ instant, zone, text: expected });
      expect(new Date(text).getTime()).toBe(Math.floor(new Date(instant).getTime() / 1000) * 1000);
    }
  });
});
