import { approximateBytes, BoundedMap, stringBytes } from './bounded-map';

describe(BoundedMap.name, () => {
  const bySize = (_key: string, value: number): number => value;

  it('forgets the oldest entries past the entry bound', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 3, maxBytes: 1_000 }, bySize);
    for (const key of ['a', 'b', 'c', 'd']) {
      map.set(key, 1);
    }
    expect([...map.keys()]).toEqual(['b', 'c', 'd']);
    expect(map.size).toBe(3);
    expect(map.bytes).toBe(3);
  });

  it('forgets the oldest entries past the byte bound, however few the entries', () => {
    const evicted: string[] = [];
    const map = new BoundedMap<string, number>({ maxEntries: 100, maxBytes: 100 }, bySize, (key) => evicted.push(key));
    map.set('a', 40).set('b', 40).set('c', 40);
    expect([...map.keys()]).toEqual(['b', 'c']);
    expect(map.bytes).toBe(80);
    expect(evicted).toEqual(['a']);
  });

  it('does not keep a value larger than the whole byte budget, and keeps the others', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 10, maxBytes: 100 }, bySize);
    map.set('small', 10).set('huge', 101);
    expect(map.has('huge')).toBe(false);
    expect(map.get('small')).toBe(10);
  });

  it('counts a replaced value once and makes it the newest', () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2, maxBytes: 100 }, bySize);
    map.set('a', 10).set('b', 10).set('a', 30).set('c', 10);
    expect([...map.keys()]).toEqual(['a', 'c']);
    expect(map.bytes).toBe(40);
    map.delete('a');
    map.clear();
    expect(map.bytes).toBe(0);
  });

  it('holds its bounds over a long run of distinct keys', () => {
    const map = new BoundedMap<string, string>({ maxEntries: 1_000, maxBytes: 64 * 1024 }, (key, value) => stringBytes(key) + stringBytes(value));
    for (let index = 0; index < 100_000; index += 1) {
      map.set(`key-${index}`, 'x'.repeat(index % 500));
      expect(map.size).toBeLessThanOrEqual(1_000);
      expect(map.bytes).toBeLessThanOrEqual(64 * 1024);
    }
  });

  it('refuses bounds below one', () => {
    expect(() => new BoundedMap({ maxEntries: 0, maxBytes: 10 }, bySize)).toThrow(RangeError);
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
