import { approximateBytes, boundedCache, heldBy, type MemoryBounds, stringBytes } from './bounded-cache';

describe(boundedCache.name, () => {
  const bySize = (_key: string, value: number): number => value;
  /** Oldest (least recently used) first. */
  const heldKeys = (cache: { rkeys(): Iterable<string> }): string[] => [...cache.rkeys()];

  it('forgets the least recently used entries past the entry bound', () => {
    const bounds: MemoryBounds = { maxEntries: 3, maxBytes: 1_000 };
    const cache = boundedCache<string, number>(bounds, bySize);
    for (const key of ['a', 'b', 'c', 'd']) {
      cache.set(key, 1);
    }
    expect(heldKeys(cache)).toEqual(['b', 'c', 'd']);
    expect(cache.size).toBe(3);
    // Small entries count as their share of the budget (1,000 / 3 each): the entry bound.
    expect(heldBy(cache, bounds).bytes).toBe(1_000);
  });

  it('forgets the least recently used entries past the byte bound, however few the entries', () => {
    const bounds: MemoryBounds = { maxEntries: 100, maxBytes: 100 };
    const cache = boundedCache<string, number>(bounds, bySize);
    cache.set('a', 40).set('b', 40).set('c', 40);
    expect(heldKeys(cache)).toEqual(['b', 'c']);
    expect(heldBy(cache, bounds).bytes).toBe(80);
  });

  it('keeps an entry that is read, and forgets one that is only peeked at', () => {
    const cache = boundedCache<string, number>({ maxEntries: 2, maxBytes: 100 }, bySize);
    cache.set('a', 1).set('b', 1);
    cache.get('a');
    cache.set('c', 1);
    expect(heldKeys(cache)).toEqual(['a', 'c']);
    cache.peek('a');
    cache.set('d', 1);
    expect(heldKeys(cache)).toEqual(['c', 'd']);
  });

  it('does not keep a value larger than the whole byte budget, and keeps the others', () => {
    const bounds: MemoryBounds = { maxEntries: 10, maxBytes: 100 };
    const cache = boundedCache<string, number>(bounds, bySize);
    cache.set('small', 10).set('huge', 101);
    expect(cache.has('huge')).toBe(false);
    expect(cache.get('small')).toBe(10);
    // A known key given an oversized value is forgotten, not left with its old value.
    cache.set('small', 101);
    expect(cache.has('small')).toBe(false);
    expect(heldBy(cache, bounds).bytes).toBe(0);
  });

  it('counts a replaced value once and makes it the newest', () => {
    const bounds: MemoryBounds = { maxEntries: 2, maxBytes: 100 };
    const cache = boundedCache<string, number>(bounds, bySize);
    // Counted twice, the replaced 'a' would push out 'b' at once.
    cache.set('a', 10).set('b', 10).set('a', 30);
    expect(heldKeys(cache)).toEqual(['b', 'a']);
    cache.set('c', 10);
    expect(heldKeys(cache)).toEqual(['a', 'c']);
    expect(heldBy(cache, bounds).bytes).toBe(100);
    cache.delete('a');
    expect(heldBy(cache, bounds).bytes).toBe(50);
    cache.clear();
    expect(heldBy(cache, bounds).bytes).toBe(0);
  });

  it('holds its bounds over a long run of distinct keys', () => {
    const bounds: MemoryBounds = { maxEntries: 1_000, maxBytes: 64 * 1024 };
    const cache = boundedCache<string, string>(bounds, (key, value) => stringBytes(key) + stringBytes(value));
    let bytes = 0;
    for (let index = 0; index < 100_000; index += 1) {
      cache.set(`key-${index}`, 'x'.repeat(index % 500));
      if (index % 97 === 0) {
        bytes = [...cache.entries()].reduce((sum, [key, value]) => sum + stringBytes(key) + stringBytes(value), 0);
        expect(cache.size).toBeLessThanOrEqual(1_000);
        expect(bytes).toBeLessThanOrEqual(64 * 1024);
        expect(heldBy(cache, bounds).bytes).toBeLessThanOrEqual(64 * 1024);
      }
    }
    expect(bytes).toBeGreaterThan(32 * 1024);
  });

  it('allocates nothing up front, however large the entry bound', () => {
    const before = process.memoryUsage().rss;
    const caches = Array.from({ length: 20 }, () => boundedCache<string, number>({ maxEntries: 100_000, maxBytes: 32 * 1024 * 1024 }, bySize));
    // lru-cache with max: 100,000 takes about 2.6 MB each before its first entry.
    expect(process.memoryUsage().rss - before).toBeLessThan(10 * 1024 * 1024);
    expect(caches.every((cache) => cache.size === 0)).toBe(true);
  });

  it('refuses bounds below one (lru-cache would read 0 as no bound)', () => {
    expect(() => boundedCache({ maxEntries: 0, maxBytes: 10 }, bySize)).toThrow(RangeError);
    expect(() => boundedCache({ maxEntries: 10, maxBytes: 0 }, bySize)).toThrow(RangeError);
    expect(() => boundedCache({ maxEntries: 1.5, maxBytes: 10 }, bySize)).toThrow(RangeError);
  });
});

describe(approximateBytes.name, () => {
  it('grows with the value', () => {
    const small = approximateBytes({ id: 1, name: 'a' });
    const large = approximateBytes({ id: 1, name: 'a'.repeat(10_000) });
    expect(large - small).toBeGreaterThanOrEqual(10_000);
    expect(approximateBytes(Buffer.alloc(5_000))).toBeGreaterThanOrEqual(5_000);
    expect(approximateBytes(new Float64Array(1_000))).toBeGreaterThanOrEqual(8_000);
    expect(approximateBytes(new Float64Array(1_000))).toBeLessThan(9_000);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(approximateBytes(cycle)).toBeGreaterThan(1_000);
  });
});
