import { dayOf, eraAt, nextDayStart, splitByDay, splitByEra } from './play-spans';

const at = (iso: string): number => Date.parse(iso) / 1000;

describe('play spans', () => {
  describe(dayOf.name, () => {
    it('names the day in the zone', () => {
      expect(dayOf(at('2026-11-21T14:59:59Z'), 'Asia/Tokyo')).toBe('2026-11-21');
      expect(dayOf(at('2026-11-21T15:00:00Z'), 'Asia/Tokyo')).toBe('2026-11-22');
      expect(dayOf(at('2026-11-21T15:00:00Z'), 'UTC')).toBe('2026-11-21');
    });
  });

  describe(nextDayStart.name, () => {
    it('is the next local midnight', () => {
      expect(nextDayStart(at('2026-11-21T20:00:00Z'), 'Asia/Tokyo')).toBe(at('2026-11-22T15:00:00Z'));
      expect(nextDayStart(at('2026-11-21T14:59:59Z'), 'Asia/Tokyo')).toBe(at('2026-11-21T15:00:00Z'));
      expect(nextDayStart(at('2026-11-21T15:00:00Z'), 'Asia/Tokyo')).toBe(at('2026-11-22T15:00:00Z'));
    });

    it('follows clock changes (New York, spring and autumn)', () => {
      expect(nextDayStart(at('2026-03-08T12:00:00Z'), 'America/New_York')).toBe(at('2026-03-09T04:00:00Z'));
      expect(nextDayStart(at('2026-11-01T12:00:00Z'), 'America/New_York')).toBe(at('2026-11-02T05:00:00Z'));
    });

    it('finds the start of a day whose midnight is skipped (Santiago, 2022-09-11 begins at 01:00)', () => {
      const start = nextDayStart(at('2022-09-10T12:00:00Z'), 'America/Santiago');
      expect(dayOf(start, 'America/Santiago')).toBe('2022-09-11');
      expect(dayOf(start - 1, 'America/Santiago')).toBe('2022-09-10');
    });
  });

  describe(splitByDay.name, () => {
    it('splits a session across midnight in the zone', () => {
      // 23:30 to 01:15 in Japan.
      expect(splitByDay(at('2026-11-21T14:30:00Z'), at('2026-11-21T16:15:00Z'), 'Asia/Tokyo')).toEqual([
        { day: '2026-11-21', seconds: 1800 },
        { day: '2026-11-22', seconds: 4500 },
      ]);
    });

    it('gives whole days in the middle of a long span, and nothing for an empty one', () => {
      expect(splitByDay(at('2026-11-20T15:00:00Z'), at('2026-11-22T15:00:00Z'), 'Asia/Tokyo')).toEqual([
        { day: '2026-11-21', seconds: 86400 },
        { day: '2026-11-22', seconds: 86400 },
      ]);
      expect(splitByDay(100, 100, 'Asia/Tokyo')).toEqual([]);
    });

    it('counts a 23-hour day as 23 hours', () => {
      const from = at('2026-03-08T05:00:00Z'); // midnight in New York
      expect(splitByDay(from, at('2026-03-09T04:00:00Z'), 'America/New_York')).toEqual([{ day: '2026-03-08', seconds: 23 * 3600 }]);
    });
  });

  describe(splitByEra.name, () => {
    const eras = [
      { key: 'old', start: null, end: new Date('2020-01-01T00:00:00Z') },
      { key: 'mid', start: new Date('2020-01-01T00:00:00Z'), end: new Date('2021-01-01T00:00:00Z') },
      { key: 'now', start: new Date('2022-01-01T00:00:00Z'), end: null },
    ];

    it('splits at era edges and counts play outside every era in the last one', () => {
      expect(splitByEra(at('2019-12-31T23:00:00Z'), at('2020-01-01T01:00:00Z'), eras)).toEqual([
        { era: 'old', seconds: 3600 },
        { era: 'mid', seconds: 3600 },
      ]);
      // 2021 belongs to no era: the last one.
      expect(splitByEra(at('2020-12-31T23:00:00Z'), at('2021-01-01T02:00:00Z'), eras)).toEqual([
        { era: 'mid', seconds: 3600 },
        { era: 'now', seconds: 7200 },
      ]);
      expect(eraAt(at('2021-06-01T00:00:00Z'), eras)).toBe('now');
    });

    it('puts everything in the last era when no era has dates', () => {
      const plain = ['kassi', 'jao1', 'jao4'].map((key) => ({ key, start: null, end: null }));
      expect(splitByEra(0, 500, plain)).toEqual([{ era: 'jao4', seconds: 500 }]);
    });
  });
});
