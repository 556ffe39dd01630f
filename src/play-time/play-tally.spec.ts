import { tallyPlay } from './play-tally';

const at = (iso: string): number => Date.parse(iso) / 1000;

describe(tallyPlay.name, () => {
  it('sums spans per player and day, and per era when asked', () => {
    const eras = [
      { key: 'a', start: null, end: new Date('2026-11-22T00:00:00Z') },
      { key: 'b', start: null, end: null },
    ];
    const spans = [
      { uuid: 'p', from: at('2026-11-21T14:00:00Z'), to: at('2026-11-21T16:00:00Z') },
      { uuid: 'p', from: at('2026-11-21T23:00:00Z'), to: at('2026-11-22T01:00:00Z') },
      { uuid: 'q', from: at('2026-11-21T10:00:00Z'), to: at('2026-11-21T10:00:30Z') },
    ];
    const tally = tallyPlay(spans, 'Asia/Tokyo', eras);
    expect(tally.days).toEqual([
      { uuid: 'p', day: '2026-11-21', seconds: 3600 },
      { uuid: 'p', day: '2026-11-22', seconds: 3600 + 7200 },
      { uuid: 'q', day: '2026-11-21', seconds: 30 },
    ]);
    expect(tally.eras).toEqual([
      { uuid: 'p', era: 'a', seconds: 7200 + 3600 },
      { uuid: 'p', era: 'b', seconds: 3600 },
      { uuid: 'q', era: 'a', seconds: 30 },
    ]);
    expect(tallyPlay(spans, 'Asia/Tokyo', null).eras).toEqual([]);
  });
});
