import { MEMORY_LIMITER_BOUNDS, MemoryFlags, MemoryWindowCounter } from './window-counters';

describe(MemoryWindowCounter.name, () => {
  it('keeps at most maxEntries keys, forgetting the oldest, and still limits the keys it keeps', async () => {
    const counter = new MemoryWindowCounter(60_000, { maxEntries: 100, maxBytes: 1024 * 1024 });
    for (let index = 0; index < 1_000; index += 1) {
      await counter.hit(`address-${index}`, 2);
    }
    expect(counter.held.entries).toBe(100);
    expect((await counter.hit('address-999', 2)).allowed).toBe(true);
    expect((await counter.hit('address-999', 2)).allowed).toBe(false);
    // The oldest key was forgotten: it starts again.
    expect((await counter.peek('address-0', 2)).count).toBe(0);
  });

  it('keeps at most maxBytes (estimated), however long the keys', async () => {
    const counter = new MemoryWindowCounter(60_000, { maxEntries: 100_000, maxBytes: 64 * 1024 });
    for (let index = 0; index < 500; index += 1) {
      await counter.hit(`${'x'.repeat(1_000)}-${index}`, 5);
      expect(counter.held.bytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(counter.held.entries).toBeLessThan(70);
  });

  it('resets a count to start a whole window from now, and takes rewards back', async () => {
    const counter = new MemoryWindowCounter(60_000);
    await counter.hit('a', Infinity, 5);
    await counter.reset('a', 21);
    expect((await counter.peek('a', 20)).count).toBe(21);
    await counter.reward('a', 1);
    expect((await counter.peek('a', 20)).count).toBe(20);
    await counter.delete('a');
    expect((await counter.peek('a', 20)).count).toBe(0);
  });

  it('has default bounds that a day of ordinary traffic does not reach', () => {
    expect(MEMORY_LIMITER_BOUNDS.maxEntries).toBeGreaterThanOrEqual(10_000);
    expect(MEMORY_LIMITER_BOUNDS.maxBytes).toBeLessThanOrEqual(64 * 1024 * 1024);
  });
});

describe(MemoryFlags.name, () => {
  it('raises a flag for a time and forgets it after', async () => {
    const flags = new MemoryFlags();
    await flags.raise('x', 50);
    expect(await flags.msLeft('x')).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await flags.msLeft('x')).toBe(0);
    await flags.raise('y', 10_000);
    await flags.clear('y');
    expect(await flags.msLeft('y')).toBe(0);
  });
});
