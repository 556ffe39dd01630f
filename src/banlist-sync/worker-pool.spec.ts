import { runPool } from './worker-pool';

describe(runPool.name, () => {
  it('runs every item with at most `concurrency` in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(item);
      inFlight -= 1;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });

  it('handles no items and rejects a bad concurrency', async () => {
    await expect(runPool([], 4, () => Promise.resolve())).resolves.toBeUndefined();
    await expect(runPool([1], 0, () => Promise.resolve())).rejects.toThrow(RangeError);
  });

  it('stops taking items after a failure and rejects with it', async () => {
    const started: number[] = [];
    await expect(
      runPool([1, 2, 3, 4], 1, async (item) => {
        started.push(item);
        await Promise.resolve();
        if (item === 2) {
          throw new Error('boom');
        }
      }),
    ).rejects.toThrow('boom');
    expect(started).toEqual([1, 2]);
  });
});
