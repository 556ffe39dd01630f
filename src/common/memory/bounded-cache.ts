import { LRUCache } from 'lru-cache';

/**
 * In-process caches bounded by entries AND by bytes (docs/reliability.md, "Lifetime"): an entry
 * count alone does not bound memory when one entry can be a whole city list or a map picture, and
 * a long-running process must not grow with the data or with what callers send.
 */

export interface MemoryBounds {
  /** At most this many entries. */
  maxEntries: number;
  /** At most about this many bytes, as estimated by the cache's `sizeOf`. */
  maxBytes: number;
}

/** Estimates, never measures: V8 does not tell an object's retained size cheaply. */
export const ENTRY_OVERHEAD_BYTES = 64;

/** A rough in-memory size of a string (UTF-16 in the worst case). */
export function stringBytes(text: string): number {
  return text.length * 2 + ENTRY_OVERHEAD_BYTES;
}

/**
 * A rough in-memory size of a JSON-like value: twice its JSON length (keys and numbers take about
 * as much in the heap as in text, strings up to twice) plus a fixed overhead. Used only when an
 * entry is stored, which is after a database read, so its cost is small beside the read's.
 */
export function approximateBytes(value: unknown): number {
  if (typeof value === 'string') {
    return stringBytes(value);
  }
  if (ArrayBuffer.isView(value)) {
    // Buffers and typed arrays (a mini-game category's ladder of scores): their bytes, not their JSON.
    return value.byteLength + ENTRY_OVERHEAD_BYTES;
  }
  try {
    return (JSON.stringify(value) ?? '').length * 2 + ENTRY_OVERHEAD_BYTES;
  } catch {
    // Not serialisable (a cycle): counted as large, so that it cannot fill the budget unseen.
    return 1024 * 1024;
  }
}

/**
 * An lru-cache held within `bounds`: past either bound the least recently used entries go, and a
 * value larger than the whole byte budget is not kept at all (lru-cache's `maxEntrySize` defaults
 * to `maxSize`). Values cannot be `undefined` or `null` (lru-cache stores neither): a cache of
 * "not found" boxes its values. The bounds are checked here because lru-cache reads a 0 as "no
 * bound", which must never happen by mistake.
 *
 * Both bounds are kept through lru-cache's size alone, never its `max`: with `max` lru-cache
 * allocates that many slots up front, and the rate limiters' 100,000-entry tables and the read
 * caches took about 27 MB of an idle server's RSS before a single entry
 * (docs/design-and-performance.md, "Libraries instead of hand-written code"). Each entry weighs
 * `max(bytes × maxEntries, maxBytes)` against a budget of `maxBytes × maxEntries`: as every entry
 * weighs at least `maxBytes`, at most `maxEntries` fit; as each weighs at least its bytes times
 * `maxEntries`, their bytes add up to at most `maxBytes`. Exact, in integers far below 2^53.
 */
export function boundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(bounds: MemoryBounds, sizeOf: (key: K, value: V) => number): LRUCache<K, V> {
  const { maxEntries, maxBytes } = bounds;
  if (!Number.isInteger(maxEntries) || !Number.isInteger(maxBytes) || maxEntries < 1 || maxBytes < 1) {
    throw new RangeError('a bounded cache needs whole maxEntries and maxBytes of at least 1');
  }
  if (!Number.isSafeInteger(maxBytes * maxEntries * 2)) {
    throw new RangeError('a bounded cache\'s maxBytes × maxEntries must stay a safe integer');
  }
  return new LRUCache<K, V>({
    maxSize: maxBytes * maxEntries,
    sizeCalculation: (value, key) => Math.max(Math.ceil(sizeOf(key, value)) * maxEntries, maxBytes),
  });
}

/**
 * What a bounded cache holds (for tests and diagnostics): its entries, and the estimated bytes of
 * them, where an entry smaller than `maxBytes / maxEntries` counts as that much (the share that
 * keeps the entry bound). Never above the bounds.
 */
export function heldBy(cache: { readonly size: number; readonly calculatedSize: number }, bounds: MemoryBounds): { entries: number; bytes: number } {
  return { entries: cache.size, bytes: cache.calculatedSize / bounds.maxEntries };
}
