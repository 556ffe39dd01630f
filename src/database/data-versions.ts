import { Injectable } from '@nestjs/common';
import { SqlReader } from './sql-reader';
import type { Transaction } from './transaction';

/**
 * What a cached read can depend on.
 * - `cities`: any city or city request write.
 * - `city-owners`: a city owner's game id or chat id (what a city view shows of its owner); not
 *   bumped by login batches that change no owner, so they do not rebuild the city list.
 * - `players`: any write to a player (login batches, renames, chat links): player reads.
 * - `banlist`: any write to the ban-list mirror (players and bans): ban-list reads.
 * - `mini-games`: a mini-game result stored: each category's ladder of scores.
 * - `votes`: a player moved between vote count levels: each vote site's levels (the ranks).
 */
export type DataTopic = 'cities' | 'city-owners' | 'players' | 'banlist' | 'mini-games' | 'votes';

/**
 * Change counters that make read caches safe: writers bump a topic inside their transaction,
 * readers compare a stamp of the counters (one primary-key query) with the stamp their cached
 * value was built at. A write is visible to the very next read, on any instance.
 */
@Injectable()
export class DataVersions {
  /** Stamps by topic list, valid while the reader's change counter stays at `counter` (SQLite files). */
  private readonly stamps = new Map<string, string>();
  private counter: number | undefined;
  private unknown = 0;
  /** Stamp reads not sent yet (MySQL), by topic list: shared by the requests of this turn (see `currentStamp`). */
  private readonly unsent = new Map<string, Promise<string>>();

  constructor(private readonly reader: SqlReader) {}

  /** Called only by the repository that writes a table feeding `topic` (docs/design-and-performance.md, "One way to read, one way to write"). */
  async bump(tx: Transaction, topic: DataTopic): Promise<void> {
    await tx.run('UPDATE data_versions SET version = version + 1 WHERE name = ?', [topic]);
  }

  /**
   * A stamp that changes with every commit to the database by anyone, where the database keeps
   * such a counter (a SQLite file); elsewhere a new value on every call, so nothing cached under
   * it is ever served. For caches of reads whose writers bump no topic.
   */
  anyWriteStamp(): string {
    const counter = this.reader.changeCounter();
    if (counter === undefined) {
      this.unknown += 1;
      return `unknown:${this.unknown}`;
    }
    return `any:${counter}`;
  }

  /**
   * The counters of the topics, as one comparable string. On a SQLite file the query is skipped
   * while nothing at all was committed since the last one (SqlReader.changeCounter): every hot
   * read checks a stamp, and on a read-mostly service that check is then a few microseconds,
   * answered synchronously.
   */
  async stamp(topics: readonly DataTopic[]): Promise<string> {
    return this.currentStamp(topics);
  }

  /**
   * `stamp`, but synchronous when the stamp is known (no promise to wait for on the hot path).
   *
   * On MySQL every cached read asks the database, and the requests handled in one turn of the
   * event loop share one stamp read per topic list: its statement is sent at the turn's end with
   * the turn's other reads (SqlReader.readsWaitForTurnEnd), after every request that shares it
   * arrived, so it sees every write acknowledged before any of them was sent. The entry is dropped
   * right after that send (the immediate is queued after the send's), and a later request reads
   * again.
   */
  currentStamp(topics: readonly DataTopic[]): string | Promise<string> {
    const counter = this.reader.changeCounter();
    const key = topics.join(',');
    if (counter !== undefined) {
      if (counter !== this.counter) {
        this.stamps.clear();
        this.counter = counter;
      } else {
        const known = this.stamps.get(key);
        if (known !== undefined) {
          return known;
        }
      }
    }
    if (!this.reader.readsWaitForTurnEnd) {
      return this.query(topics, key, counter);
    }
    const unsent = this.unsent.get(key);
    if (unsent) {
      return unsent;
    }
    const read = this.query(topics, key, counter);
    this.unsent.set(key, read);
    setImmediate(() => this.unsent.delete(key));
    return read;
  }

  private async query(topics: readonly DataTopic[], key: string, counter: number | undefined): Promise<string> {
    const rows = await this.reader.all<{ name: string; version: number }>(
      `SELECT name, version FROM data_versions WHERE name IN (${topics.map(() => '?').join(',')}) ORDER BY name`,
      topics,
    );
    if (rows.length !== new Set(topics).size) {
      // A topic without its row (a migration not run) is never bumped: no cache may trust it.
      this.unknown += 1;
      return `unknown:${this.unknown}`;
    }
    const stamp = rows.map((row) => `${row.name}:${row.version}`).join('|');
    // The counter was read before the query: a commit in between changes it, and the next call re-reads.
    if (counter !== undefined && counter === this.counter) {
      this.stamps.set(key, stamp);
    }
    return stamp;
  }

}
