import { parseTimestamp } from './timestamp';

describe(parseTimestamp.name, () => {
  it.each([
    ['2026-11-22T03:04:05.000Z', '2026-11-22T03:04:05.000Z'],
    ['2026-11-22T03:04:05Z', '2026-11-22T03:04:05.000Z'],
    ['2018-03-20T00:00:00+09:00', '2018-03-19T15:00:00.000Z'],
    ['2018-03-20T00:00+09:00', '2018-03-19T15:00:00.000Z'],
    ['2024-02-29T12:00:00.5-05:00', '2024-02-29T17:00:00.500Z'],
  ])('reads %s', (text, iso) => {
    expect(parseTimestamp(text)?.toISOString()).toBe(iso);
  });

  it.each([['2026-11-22T03:04:05'], ['2026-11-22'], ['2023-02-29T00:00:00Z'], ['2026-13-01T00:00:00Z'], ['yesterday'], [''], [1700000000000], [null]])(
    'rejects %p',
    (value) => {
      expect(parseTimestamp(value)).toBeUndefined();
    },
  );
});
