import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Mutex } from 'async-mutex';
import { DataSource, EntityManager } from 'typeorm';
import { MetricsService } from '../metrics/metrics.service';
import { isDeadlock } from './database-errors';

const DEADLOCK_ATTEMPTS = 4;

/**
 * An open transaction. Services get it from `UnitOfWork.transaction` and only hand it to the
 * repositories they call; repositories run their queries on it.
 */
export type Transaction = EntityManager;

export interface TransactionOptions {
  /** A named lock (see `lock`) taken first, for check-then-write rules no index can express. */
  lock?: string;
}

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

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    private readonly metrics: MetricsService,
  ) {
    this.sqliteQueue = dataSource.options.type === 'better-sqlite3' ? new Mutex() : undefined;
  }

  get isSqlite(): boolean {
    return this.sqliteQueue !== undefined;
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const { lock } = options;
    const run =
      lock === undefined
        ? work
        : async (tx: Transaction): Promise<T> => {
            await this.lock(tx, lock);
            return work(tx);
          };
    if (this.sqliteQueue) {
      return this.sqliteQueue.runExclusive(() => this.immediateTransaction(run));
    }
    // InnoDB may pick any concurrent transaction as a deadlock victim (gap locks on inserts);
    // the whole transaction was rolled back, so running it again is safe.
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.dataSource.transaction(run);
      } catch (error) {
        if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) {
          throw error;
        }
        this.metrics.deadlockRetries.inc();
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  }

  /**
   * SQLite: BEGIN IMMEDIATE, so the write lock is taken first and SQLite's busy handler waits for
   * it. A deferred transaction that reads and then writes fails at once with SQLITE_BUSY (no
   * waiting) when another process, such as the CLI importing, committed in between: a 503.
   */
  private async immediateTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    const query = runner.query.bind(runner);
    runner.query = ((sql: string, ...rest: unknown[]) => query(sql === 'BEGIN TRANSACTION' ? 'BEGIN IMMEDIATE TRANSACTION' : sql, ...(rest as []))) as typeof runner.query;
    try {
      // A BEGIN that fails (SQLITE_BUSY past the busy timeout) leaves nothing to roll back.
      await runner.startTransaction();
      try {
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        // As TypeORM's own transaction(): the first error is the one to report (SQLite may have
        // rolled back already, and then ROLLBACK fails too).
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * Serialises transactions that check-then-write a rule no index can express (overlaps,
   * per-owner limits). MySQL: a row lock on a named lock row; SQLite: the queue already serialises.
   */
  async lock(manager: Transaction, name: string): Promise<void> {
    if (this.sqliteQueue) {
      return;
    }
    // Lock first: an INSERT IGNORE on an existing row takes a shared lock, and two transactions
    // upgrading it to exclusive deadlock each other. The row is created only the first time.
    const rows = await manager.query<unknown[]>('SELECT name FROM app_locks WHERE name = ? FOR UPDATE', [name]);
    if (rows.length === 0) {
      await manager.query('INSERT IGNORE INTO app_locks (name) VALUES (?)', [name]);
      await manager.query('SELECT name FROM app_locks WHERE name = ? FOR UPDATE', [name]);
    }
  }
}
