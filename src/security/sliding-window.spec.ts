import { hit, msUntilRoom, reward, windowShape, type Buckets } from './sliding-window';

/** Sends `count` hits at `now` against `limit` and returns how many passed, keeping the buckets. */
function send(state: { buckets: Buckets }, now: number, count: number, limit: number, durationMs: number): number {
  let passed = 0;
  for (let sent = 0; sent < count; sent += 1) {
    const result = hit(state.buckets, windowShape(durationMs), now, limit);
    state.buckets = result.buckets;
    passed += result.state.allowed ? 1 : 0;
  }
  return passed;
}

describe('sliding window', () => {
  const minute = 60_000;

  it('lets the limit through, then refuses, and does not count a refused hit', () => {
    const state = { buckets: [] as Buckets };
    expect(send(state, 1_000_000, 700, 600, minute)).toBe(600);
    const refused = hit(state.buckets, windowShape(minute), 1_000_000, 600);
    expect(refused.state).toMatchObject({ allowed: false, count: 600 });
  });

  it('lets no span of one window through more than the limit, where a fixed window let twice as many', () => {
    // The limit just before a minute boundary and again just after it (what 1,199 requests did).
    for (const boundary of [60_000 * 1000, 60_000 * 1000 + 5_999, 60_000 * 1000 + 3_000]) {
      const state = { buckets: [] as Buckets };
      const before = send(state, boundary - 100, 600, 600, minute);
      const after = send(state, boundary + 100, 600, 600, minute);
      expect(before + after).toBeLessThanOrEqual(600);
    }
  });

  it('slides: no 60 s span anywhere lets more than 600 through, whatever the pattern', () => {
    const state = { buckets: [] as Buckets };
    const passedAt: number[] = [];
    // A client sending 40 requests every 1.7 s for five minutes.
    for (let now = 5_000_000; now < 5_000_000 + 5 * minute; now += 1_700) {
      for (let index = 0; index < 40; index += 1) {
        const result = hit(state.buckets, windowShape(minute), now, 600);
        state.buckets = result.buckets;
        if (result.state.allowed) {
          passedAt.push(now);
        }
      }
    }
    for (const start of passedAt) {
      expect(passedAt.filter((at) => at >= start && at < start + minute).length).toBeLessThanOrEqual(600);
    }
    // And it is not stingy: over five minutes at least four windows' worth passed.
    expect(passedAt.length).toBeGreaterThanOrEqual(4 * 600);
  });

  it('says when the next hit passes: when the oldest counted bucket leaves the window', () => {
    const shape = windowShape(minute);
    const state = { buckets: [] as Buckets };
    send(state, 6_000_000, 300, 600, minute);
    send(state, 6_000_000 + 30_000, 300, 600, minute);
    // The first 300 were counted in bucket 1000 (6,000 s / 6 s); it leaves at (1000 + 11) × 6 s.
    expect(msUntilRoom(state.buckets, shape, 6_000_000 + 30_000, 600)).toBe(66_000 - 30_000);
  });

  it('takes a reward back from the newest bucket', () => {
    const shape = windowShape(minute);
    let buckets: Buckets = hit([], shape, 0, Infinity, 3).buckets;
    buckets = hit(buckets, shape, 7_000, Infinity, 1).buckets;
    expect(reward(buckets, shape, 7_000, 2)).toEqual([[0, 2]]);
  });
});
