import fc from 'fast-check';
import { durationText, timeAgoText, wallClock } from './site-times';

const TOKYO = 'Asia/Tokyo';

describe(wallClock.name, () => {
  it('shows the wall clock of the zone', () => {
    expect(wallClock(new Date('2022-01-01T18:04:05.678Z'), TOKYO)).toBe('2022-01-02 03:04:05');
    expect(wallClock(new Date('2022-07-01T12:00:00Z'), 'Europe/Berlin')).toBe('2022-07-01 14:00:00');
    expect(wallClock(new Date('2022-01-01T12:00:00Z'), 'Europe/Berlin')).toBe('2022-01-01 13:00:00');
    expect(wallClock(new Date('2022-01-01T15:00:00Z'), TOKYO)).toBe('2022-01-02 00:00:00');
  });
});

describe(durationText.name, () => {
  it.each([
    [0, '0秒'],
    [-5, '0秒'],
    [59.9, '59秒'],
    [60, '1分0秒'],
    [3 * 3600 + 5, '3時間0分5秒'],
    [86_400, '1日0時間0分0秒'],
    [2 * 86_400 + 3 * 3600 + 4 * 60 + 5, '2日3時間4分5秒'],
  ])('%d seconds → %s', (seconds, text) => {
    expect(durationText(seconds)).toBe(text);
  });

  it('reads back as the same number of seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (seconds) => {
        const units: Record<string, number> = { 日: 86_400, 時間: 3_600, 分: 60, 秒: 1 };
        const total = [...durationText(seconds).matchAll(/(\d+)(日|時間|分|秒)/gu)].reduce((sum, [, value, unit]) => sum + Number(value) * units[unit], 0);
        expect(total).toBe(seconds);
      }),
    );
  });
});

describe(timeAgoText.name, () => {
  const at = (wall: string): Date => new Date(`${wall}+09:00`);

  it.each([
    ['2022-03-04T10:00:00', '2022-03-04T23:59:59', '0日'],
    ['2022-03-04T23:59:59', '2022-03-05T00:00:00', '1日'],
    ['2022-01-10T12:00:00', '2022-03-10T08:00:00', '2か月0日'],
    ['2021-01-01T00:00:00', '2022-03-04T00:00:00', '1年2か月3日'],
    ['2021-03-04T00:00:00', '2022-03-09T00:00:00', '1年0か月5日'],
    // Whole months first, as far as they go: Jan 31 + 1 month is Feb 29 in 2024.
    ['2024-01-31T00:00:00', '2024-02-29T00:00:00', '1か月0日'],
    ['2024-01-31T00:00:00', '2024-03-01T00:00:00', '1か月1日'],
    ['2022-05-01T00:00:00', '2022-04-01T00:00:00', '0日'],
  ])('from %s to %s (Tokyo) → %s', (then, now, text) => {
    expect(timeAgoText(at(then), at(now), TOKYO)).toBe(text);
  });

  it('counts days in the zone, not in UTC', () => {
    // 23:30 and 00:30 the next day in Tokyo are both 14:30/15:30 UTC on the same UTC day.
    expect(timeAgoText(new Date('2022-03-04T14:30:00Z'), new Date('2022-03-04T15:30:00Z'), TOKYO)).toBe('1日');
    expect(timeAgoText(new Date('2022-03-04T14:30:00Z'), new Date('2022-03-04T15:30:00Z'), 'UTC')).toBe('0日');
  });
});
