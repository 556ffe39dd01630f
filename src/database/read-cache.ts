import type { LRUCache } from 'lru-cache';
import { approximateBytes, boundedCache, heldBy, type MemoryBounds, stringBytes } from '../common/memory/bounded-cache';
import type { DataTopic, DataVersions } from './data-versions';

/**
 * Per cache: the entry bound it always had, and a byte bound (docs/reliability.md, "Lifetime"):
 * 20,000 small views fit in a few MiB, but a cache of larger views must not grow past this.
 */
export const READ_CACHE_BOUNDS: MemoryBounds = { maxEntries: 20_000, maxBytes: 8 * 1024 * 1024 };

/**
 * A per-key cache of a repository read, valid while the data versions of its topics are
 * unchanged: every read checks the stamp (DataVersions.stamp, about a microsecond on a SQLite file
 * when nothing was written), so a write is visible to the next read on any instance. With the
 * topics `'any-write'` it is valid only while nothing at all was committed (SQLite files; never
 * served elsewhere): for reads whose writers are too many to bump a topic reliably. A new stamp
 * empties the cache; beyond its bounds (entries and estimated bytes) the least recently used entries go. Cached values are shared by
 * every caller and must not be mutated.
 */
export class ReadCache<V> {
  private stamp: string | undefined;
  /** Boxed: a cached "not found" (`undefined`, `null`) is a value too, and lru-cache stores neither. */
  private readonly entries: LRUCache<string, { value: V }>;

  constructor(
    private readonly versions: DataVersions,
    private readonly topics: readonly DataTopic[] | 'any-write',
    private readonly bounds: MemoryBounds = READ_CACHE_BOUNDS,
  ) {
    this.entries = boundedCache(bounds, (key, entry) => stringBytes(key) + approximateBytes(entry.value));
  }

  /** Entries and estimated bytes held (for tests and diagnostics). */
  get held(): { entries: number; bytes: number } {
    return heldBy(this.entries, this.bounds);
  }

  /** Not an async function: a hit on a known stamp costs no extra promise hops (every hot read comes here). */
  get(key: string, load: () => Promise<V>): Promise<V> {
    // The stamp is read before the data: a write racing with the load leaves the entry under an
    // older stamp, and the next read, seeing the newer one, loads again.
    const stamp = this.topics === 'any-write' ? this.versions.anyWriteStamp() : this.versions.currentStamp(this.topics);
    return typeof stamp === 'string' ? this.lookUp(stamp, key, load) : stamp.then((known) => this.lookUp(known, key, load));
  }

  private lookUp(stamp: string, key: string, load: () => Promise<V>): Promise<V> {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    } else {
      const hit = this.entries.get(key);
      if (hit) {
        return Promise.resolve(hit.value);
      }
    }
    return load().then((value) => {
      if (this.stamp === stamp) {
        this.entries.set(key, { value });
      }
      return value;
    });
  }
}
