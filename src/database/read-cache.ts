import type { DataTopic, DataVersions } from './data-versions';

/**
 * A per-key cache of a repository read, valid while the data versions of its topics are
 * unchanged: every read checks the stamp (DataVersions.stamp, about a microsecond on a SQLite file
 * when nothing was written), so a write is visible to the next read on any instance. With the
 * topics `'any-write'` it is valid only while nothing at all was committed (SQLite files; never
 * served elsewhere): for reads whose writers are too many to bump a topic reliably. A new stamp
 * empties the cache; beyond `capacity` keys the oldest entry goes. Cached values are shared by
 * every caller and must not be mutated.
 */
export class ReadCache<V> {
  private stamp: string | undefined;
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly versions: DataVersions,
    private readonly topics: readonly DataTopic[] | 'any-write',
    private readonly capacity = 20_000,
  ) {}

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
    } else if (this.entries.has(key)) {
      return Promise.resolve(this.entries.get(key) as V);
    }
    return load().then((value) => {
      if (this.stamp === stamp) {
        if (this.entries.size >= this.capacity) {
          this.entries.delete(this.entries.keys().next().value as string);
        }
        this.entries.set(key, value);
      }
      return value;
    });
  }
}
