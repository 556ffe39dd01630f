import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlReader } from './sql-reader';

/**
 * What a cached read can depend on.
 * - `cities`: any city or city request write.
 * - `city-owners`: a city owner's game id or chat id (what a city view shows of its owner); not
 *   bumped by login batches that change no owner, so they do not rebuild the city list.
 * - `players`: any write to a player (login batches, renames, chat links): player reads.
 */
export type DataTopic = 'cities' | 'city-owners' | 'players';

/**
 * Change counters that make read caches safe: writers bump a topic inside their transaction,
 * readers compare a stamp of the counters (one primary-key query) with the stamp their cached
 * value was built at. A write is visible to the very next read, on any instance.
 */
@Injectable()
export class DataVersions {
  constructor(private readonly reader: SqlReader) {}

  async bump(manager: EntityManager, topic: DataTopic): Promise<void> {
    await manager.query('UPDATE data_versions SET version = version + 1 WHERE name = ?', [topic]);
  }

  /** The counters of the topics, as one comparable string. */
  async stamp(topics: readonly DataTopic[]): Promise<string> {
    const rows = await this.reader.all<{ name: string; version: number | string }>(
      `SELECT name, version FROM data_versions WHERE name IN (${topics.map(() => '?').join(',')}) ORDER BY name`,
      topics,
    );
    return rows.map((row) => `${row.name}:${row.version}`).join('|');
  }
}
