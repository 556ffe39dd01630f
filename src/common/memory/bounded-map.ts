/**
 * In-process caches bounded by entries AND by bytes (docs/reliability.md, "Lifetime"): an entry
 * count alone does not bound memory when one entry can be a whole city list or a map picture, and
 * a long-running process must not grow with the data or with what callers send.
 */

export interface MemoryBounds {
  /** At most this many entries. */
  maxEntries: number;
  /** At most about this many bytes, as estimated by the map's `sizeOf`. */
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
  if (Buffer.isBuffer(value)) {
    return value.length + ENTRY_OVERHEAD_BYTES;
  }
  try {
    return (JSON.stringify(value) ?? '').length * 2 + ENTRY_OVERHEAD_BYTES;
  } catch {
    // Not serialisable (a cycle): counted as large, so that it cannot fill the budget unseen.
    return 1024 * 1024;
  }
}

/**
 * A Map that forgets its oldest entries (insertion order; `set` of a known key makes it the newest)
 * whenever it holds more than `maxEntries` entries or more than `maxBytes` estimated bytes. A
 * value larger than the whole byte budget is not kept at all.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private totalBytes = 0;

  constructor(
    readonly bounds: MemoryBounds,
    private readonly sizeOf: (key: K, value: V) => number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!(bounds.maxEntries >= 1) || !(bounds.maxBytes >= 1)) {
      throw new RangeError('a BoundedMap needs maxEntries and maxBytes of at least 1');
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The estimated bytes of what is held. */
  get bytes(): number {
    return this.totalBytes;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Stores the value (unless it alone exceeds the byte budget) and forgets the oldest entries past the bounds. */
  set(key: K, value: V): this {
    this.delete(key);
    const bytes = this.sizeOf(key, value);
    if (bytes > this.bounds.maxBytes) {
      return this;
    }
    this.entries.set(key, { value, bytes });
    this.totalBytes += bytes;
    while (this.entries.size > this.bounds.maxEntries || this.totalBytes > this.bounds.maxBytes) {
      const oldest = this.entries.keys().next().value as K;
      this.evict(oldest);
    }
    return this;
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (!entry) {
      return false;
    }
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  private evict(key: K): void {
    const entry = this.entries.get(key);
    if (entry && this.delete(key)) {
      this.onEvict?.(key, entry.value);
    }
  }
}
