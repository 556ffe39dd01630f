import { DataVersions } from './data-versions';
import { READ_CACHE_BOUNDS, ReadCache } from './read-cache';
import type { SqlReader } from './sql-reader';

/** A SqlReader stand-in: a change counter and the data_versions rows, both settable. */
function fakeReader(rows: Array<{ name: string; version: number }>) {
  const state = { counter: 1 as number | undefined, rows, queries: 0 };
  const reader = {
    changeCounter: () => state.counter,
    all: (_sql: string, topics: readonly string[]) => {
      state.queries += 1;
      return Promise.resolve(state.rows.filter((row) => topics.includes(row.name)));
    },
  } as unknown as SqlReader;
  return { reader, state };
}

describe(DataVersions.name, () => {
  it('reads the counters only when something was committed since the last read', async () => {
    const { reader, state } = fakeReader([{ name: 'players', version: 3 }]);
    const versions = new DataVersions(reader);
    expect(await versions.stamp(['players'])).toBe('players:3');
    expect(await versions.stamp(['players'])).toBe('players:3');
    expect(state.queries).toBe(1);
    state.rows[0].version = 4;
    state.counter = 2;
    expect(await versions.stamp(['players'])).toBe('players:4');
    expect(state.queries).toBe(2);
  });

  it('shares one stamp read among the requests of a turn where reads go out at its end (MySQL), and reads again in the next', async () => {
    const { reader, state } = fakeReader([{ name: 'players', version: 3 }]);
    state.counter = undefined;
    Object.defineProperty(reader, 'readsWaitForTurnEnd', { value: true });
    const versions = new DataVersions(reader);
    const first = versions.currentStamp(['players']);
    const second = versions.currentStamp(['players']);
    expect(second).toBe(first);
    expect(versions.currentStamp(['players', 'cities'])).not.toBe(first);
    expect(state.queries).toBe(2);
    expect(await first).toBe('players:3');
    state.rows[0].version = 4;
    await new Promise((resolve) => setImmediate(resolve));
    expect(await versions.currentStamp(['players'])).toBe('players:4');
    expect(state.queries).toBe(3);
  });

  it('queries every time where there is no change counter (MySQL, in-memory SQLite)', async () => {
    const { reader, state } = fakeReader([{ name: 'players', version: 3 }]);
    state.counter = undefined;
    const versions = new DataVersions(reader);
    await versions.stamp(['players']);
    await versions.stamp(['players']);
    expect(state.queries).toBe(2);
    expect(versions.anyWriteStamp()).not.toBe(versions.anyWriteStamp());
  });

  it('never repeats a stamp for a topic without its row', async () => {
    const { reader } = fakeReader([{ name: 'players', version: 3 }]);
    const versions = new DataVersions(reader);
    expect(await versions.stamp(['banlist'])).not.toBe(await versions.stamp(['banlist']));
  });
});

describe(ReadCache.name, () => {
  it('serves a key while the stamp is unchanged and loads again after any change', async () => {
    const { reader, state } = fakeReader([{ name: 'players', version: 1 }]);
    const cache = new ReadCache<string>(new DataVersions(reader), ['players']);
    let loads = 0;
    const load = () => Promise.resolve(`value ${(loads += 1)}`);
    expect(await cache.get('a', load)).toBe('value 1');
    expect(await cache.get('a', load)).toBe('value 1');
    state.rows[0].version = 2;
    state.counter = 2;
    expect(await cache.get('a', load)).toBe('value 2');
  });

  it('does not keep a value loaded while the stamp changed', async () => {
    const { reader, state } = fakeReader([{ name: 'players', version: 1 }]);
    const cache = new ReadCache<string>(new DataVersions(reader), ['players']);
    let loads = 0;
    const first = cache.get('a', async () => {
      loads += 1;
      // A write commits while the first load runs; a second read sees it and loads again.
      state.rows[0].version = 2;
      state.counter = 2;
      expect(await cache.get('a', () => Promise.resolve('fresh'))).toBe('fresh');
      return 'stale';
    });
    expect(await first).toBe('stale');
    expect(await cache.get('a', () => Promise.resolve('other'))).toBe('fresh');
    expect(loads).toBe(1);
  });

  it('keeps a "not found" (undefined or null) like any other value', async () => {
    const { reader } = fakeReader([{ name: 'players', version: 1 }]);
    const cache = new ReadCache<string | null | undefined>(new DataVersions(reader), ['players']);
    let loads = 0;
    const missing = (value: null | undefined) => () => Promise.resolve(((loads += 1), value));
    expect(await cache.get('gone', missing(undefined))).toBeUndefined();
    expect(await cache.get('gone', missing(undefined))).toBeUndefined();
    expect(await cache.get('none', missing(null))).toBeNull();
    expect(await cache.get('none', missing(null))).toBeNull();
    expect(loads).toBe(2);
  });

  it('keeps at most `maxEntries` keys, dropping the least recently used', async () => {
    const { reader } = fakeReader([{ name: 'players', version: 1 }]);
    const cache = new ReadCache<string>(new DataVersions(reader), ['players'], { maxEntries: 2, maxBytes: 1024 * 1024 });
    await cache.get('a', () => Promise.resolve('a1'));
    await cache.get('b', () => Promise.resolve('b1'));
    expect(await cache.get('a', () => Promise.resolve('a2'))).toBe('a1');
    await cache.get('c', () => Promise.resolve('c1'));
    expect(await cache.get('b', () => Promise.resolve('b2'))).toBe('b2');
    expect(await cache.get('c', () => Promise.resolve('c2'))).toBe('c1');
  });

  it('keeps at most `maxBytes` (estimated), dropping the least recently used, however few the keys', async () => {
    const { reader } = fakeReader([{ name: 'players', version: 1 }]);
    const cache = new ReadCache<string>(new DataVersions(reader), ['players'], { maxEntries: 1_000, maxBytes: 10_000 });
    const large = (tag: string): string => tag.repeat(2_000);
    for (const key of ['a', 'b', 'c', 'd']) {
      await cache.get(key, () => Promise.resolve(large(key)));
    }
    expect(cache.held.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.held.entries).toBe(2);
    expect(await cache.get('a', () => Promise.resolve('reloaded'))).toBe('reloaded');
    expect(await cache.get('d', () => Promise.resolve('reloaded'))).toBe(large('d'));
  });

  it('stays within the default bounds over a long run of distinct keys', async () => {
    const { reader } = fakeReader([{ name: 'players', version: 1 }]);
    const cache = new ReadCache<{ name: string }>(new DataVersions(reader), ['players']);
    for (let index = 0; index < 30_000; index += 1) {
      await cache.get(`player-${index}`, () => Promise.resolve({ name: 'x'.repeat(200) }));
    }
    expect(cache.held.entries).toBeLessThanOrEqual(READ_CACHE_BOUNDS.maxEntries);
    expect(cache.held.bytes).toBeLessThanOrEqual(READ_CACHE_BOUNDS.maxBytes);
    expect(cache.held.bytes).toBeGreaterThan(READ_CACHE_BOUNDS.maxBytes / 2);
  });

  it("with 'any-write', serves only while nothing was committed", async () => {
    const { reader, state } = fakeReader([]);
    const cache = new ReadCache<string>(new DataVersions(reader), 'any-write');
    expect(await cache.get('t', () => Promise.resolve('s1'))).toBe('s1');
    expect(await cache.get('t', () => Promise.resolve('s2'))).toBe('s1');
    state.counter = 2;
    expect(await cache.get('t', () => Promise.resolve('s3'))).toBe('s3');
    state.counter = undefined;
    expect(await cache.get('t', () => Promise.resolve('s4'))).toBe('s4');
    expect(await cache.get('t', () => Promise.resolve('s5'))).toBe('s5');
  });
});
