import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Mutex } from 'async-mutex';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs write transactions the same way on both drivers.
 *
 * TypeORM hands every caller the same connection on better-sqlite3, so two concurrent
 * `transaction()` calls would nest as savepoints and see each other's writes. On SQLite the
 * transactions of this process are therefore queued; MySQL gets real concurrent transactions
 * from its pool and relies on row locks and unique indexes.
 */
@Injectable()
export class UnitOfWork {
  private readonly sqliteQueue: Mutex | undefined;

  constructor(@InjectDataSource() readonly dataSource: DataSource) {
    this.sqliteQueue = dataSource.options.type === 'better-sqlite3' ? new Mutex() : undefined;
  }

  get isSqlite(): boolean {
    return this.sqliteQueue !== undefined;
  }

  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.sqliteQueue) {
      return this.sqliteQueue.runExclusive(() => this.dataSource.transaction(work));
    }
    return this.dataSource.transaction(work);
  }

  /**
   * Serialises transactions that check-then-write a rule no index can express (overlaps,
   * per-owner limits). MySQL: a row lock on a named lock row; SQLite: the queue already serialises.
   */
  async lock(manager: EntityManager, name: string): Promise<void> {
    if (this.sqliteQueue) {
      return;
    }
    await manager.query('INSERT IGNORE INTO app_locks (name) VALUES (?)', [name]);
    await manager.query('SELECT name FROM app_locks WHERE name = ? FOR UPDATE', [name]);
  }
}
