import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { BoundedSemaphore } from '../common/limits/bounded-semaphore';
import { Telemetry } from '../common/telemetry/telemetry';
import { AppConfig } from '../config/app-config';
import { isDeadlock } from './database-errors';
import { SqlReader } from './sql-reader';
import { Transaction } from './transaction';

/**
 * How often a transaction InnoDB picked as a deadlock victim is run again. Under a loaded machine
 * several replicas' login batches and sign-ups can pick the same transaction more than three times
 * in a row (seen once in the cluster test during a SIGTERM), so six tries with a growing pause.
 */
const DEADLOCK_ATTEMPTS = 6;

/**
 * SQLite's write lock, taken as the first statement of a transaction: a write that changes no
 * row still takes it, and before any read it waits in SQLite's busy handler exactly as
 * `BEGIN IMMEDIATE` would. TypeORM's public `startTransaction()` only says `BEGIN TRANSACTION`
 * (deferred), and its bookkeeping (isTransactionActive, savepoints for nested saves) must stay
 * its own, so the transaction is begun by TypeORM and made immediate by this statement.
 * `app_locks` is the named-lock table (foundation migration): on SQLite the database's write
 * lock is the only lock there is.
 */
const TAKE_SQLITE_WRITE_LOCK = 'DELETE FROM app_locks WHERE 0';

export interface TransactionOptions {
  /** A named lock (see `lock`) taken first, for check-then-write rules no index can express. */
  lock?: string;
}

/**
 * Runs write transactions the same way on both drivers.
 *
 * TypeORM hands every caller the same connection on better-sqlite3, so two concurrent
 * `transaction()` calls would nest as savepoints and see each other's writes. On SQLite the
 * transactions of this process are therefore queued, and every write goes through here: a write
 * on the shared connection outside the queue would join whatever transaction is open and be
 * undone by its rollback. The queue is bounded (SQLITE_WRITE_QUEUE_LIMIT): past it a 503 with
 * Retry-After (docs/reliability.md). MySQL gets real concurrent transactions from its pool and
 * relies on row locks and unique indexes.
 */
@Injectable()
export class UnitOfWork {
  private readonly sqliteQueue: BoundedSemaphore | undefined;

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    private readonly telemetry: Telemetry,
    config: AppConfig,
    private readonly reader: SqlReader,
  ) {
    this.sqliteQueue = dataSource.options.type === 'better-sqlite3' ? new BoundedSemaphore('the SQLite write queue', 1, config.SQLITE_WRITE_QUEUE_LIMIT) : undefined;
  }

  get isSqlite(): boolean {
    return this.sqliteQueue !== undefined;
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const { lock } = options;
    // One Transaction per attempt: a deadlock victim's commit callbacks die with it.
    let tx: Transaction | undefined;
    const run = async (manager: EntityManager): Promise<T> => {
      tx = new Transaction(manager);
      if (lock !== undefined) {
        await this.lock(tx, lock);
      }
      return work(tx);
    };
    const result = this.sqliteQueue ? await this.sqliteQueue.run(() => this.immediateTransaction(run)) : await this.retryingDeadlocks(run);
    tx?.committed();
    return result;
  }

  private async retryingDeadlocks<T>(run: (manager: EntityManager) => Promise<T>): Promise<T> {
    // InnoDB may pick any concurrent transaction as a deadlock victim (gap locks on inserts);
    // the whole transaction was rolled back, so running it again is safe.
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.dataSource.transaction(run);
      } catch (error) {
        if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) {
          throw error;
        }
        this.telemetry.deadlockRetry();
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
      }
    }
  }

  /**
   * SQLite: the write lock is taken first (TAKE_SQLITE_WRITE_LOCK), so SQLite's busy handler waits
   * for it. A deferred transaction that reads and then writes fails at once with SQLITE_BUSY (no
   * waiting) when another process, such as the CLI importing, committed in between: a 503.
   */
  private async immediateTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      try {
        // Past the busy timeout this fails with SQLITE_BUSY and the (empty) transaction is rolled back below.
        await runner.query(TAKE_SQLITE_WRITE_LOCK);
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
      // A read that follows this write in the same turn of the event loop must see it.
      this.reader.forgetChangeCounter();
    }
  }

  /**
   * Serialises transactions that check-then-write a rule no index can express (overlaps,
   * per-owner limits). MySQL: a row lock on a named lock row; SQLite: the queue already serialises.
   */
  async lock(tx: Transaction, name: string): Promise<void> {
    if (this.sqliteQueue) {
      return;
    }
    // Lock first: an INSERT IGNORE on an existing row takes a shared lock, and two transactions
    // upgrading it to exclusive deadlock each other. The row is created only the first time.
    const row = await tx.one<{ name: string }>('SELECT name FROM app_locks WHERE name = ? FOR UPDATE', [name]);
    if (row === undefined) {
      await tx.run('INSERT IGNORE INTO app_locks (name) VALUES (?)', [name]);
      await tx.all('SELECT name FROM app_locks WHERE name = ? FOR UPDATE', [name]);
    }
  }
}
