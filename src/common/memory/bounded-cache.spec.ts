import { approximateBytes, boundedCache, stringBytes } from './bounded-cache';

describe(boundedCache.name, () => {
  const bySize = (_key: string, value: number): number => value;
  /** Oldest (least recently used) first. */
  const heldKeys = (cache: { rkeys(): Iterable<string> }): string[] => [...cache.rkeys()];

  it('forgets the least recently used entries past the entry bound', () => {
    const cache = boundedCache<string, number>({ maxEntries: 3, maxBytes: 1_000 }, bySize);
    for (const key of ['a', 'b', 'c', 'd']) {
      cache.set(key, 1);
    }
    expect(heldKeys(cache)).toEqual(['b', 'c', 'd']);
    expect(cache.size).toBe(3);
    expect(cache.calculatedSize).toBe(3);
  });

  it('forgets the least recently used entries past the byte bound, however few the entries', () => {
    const cache = boundedCache<string, number>({ maxEntries: 100, maxBytes: 100 }, bySize);
    cache.set('a', 40).set('b', 40).set('c', 40);
    expect(heldKeys(cache)).toEqual(['b', 'c']);
    expect(cache.calculatedSize).toBe(80);
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
    const cache = boundedCache<string, number>({ maxEntries: 10, maxBytes: 100 }, bySize);
    cache.set('small', 10).set('huge', 101);
    expect(cache.has('huge')).toBe(false);
    expect(cache.get('small')).toBe(10);
    // A known key given an oversized value is forgotten, not left with its old value.
    cache.set('small', 101);
    expect(cache.has('small')).toBe(false);
    expect(cache.calculatedSize).toBe(0);
  });

  it('counts a replaced value once and makes it the newest', () => {
    const cache = boundedCache<string, number>({ maxEntries: 2, maxBytes: 100 }, bySize);
    cache.set('a', 10).set('b', 10).set('a', 30).set('c', 10);
    expect(heldKeys(cache)).toEqual(['a', 'c']);
    expect(cache.calculatedSize).toBe(40);
    cache.delete('a');
    expect(cache.calculatedSize).toBe(10);
    cache.clear();
    expect(cache.calculatedSize).toBe(0);
  });

  it('holds its bounds over a long run of distinct keys', () => {
    const cache = boundedCache<string, string>({ maxEntries: 1_000, maxBytes: 64 * 1024 }, (key, value) => stringBytes(key) + stringBytes(value));
    for (let index = 0; index < 100_000; index += 1) {
      cache.set(`key-${index}`, 'x'.repeat(index % 500));
      expect(cache.size).toBeLessThanOrEqual(1_000);
      expect(cache.calculatedSize).toBeLessThanOrEqual(64 * 1024);
    }
  });

  it('refuses bounds below one (lru-cache would read 0 as no bound)', () => {
    expect(() => boundedCache({ maxEntries: 0, maxBytes: 10 }, bySize)).toThrow(RangeError);
    expect(() => boundedCache({ maxEntries: 10, maxBytes: 0 }, bySize)).toThrow(RangeError);
  });
});

describe(approximateBytes.name, () => {
  it('grows with the value', () => {
    const small = approximateBytes({ id: 1, name: 'a' });
    const large = approximateBytes({ id: 1, name: 'a'.repeat(10_000) });
    expect(large - small).toBeGreaterThanOrEqual(10_000);
    expect(approximateBytes(Buffer.alloc(5_000))).toBeGreaterThanOrEqual(5_000);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(approximateBytes(cycle)).toBeGreaterThan(1_000);
  });
});
