import * as mysql2 from 'mysql2';
import { AdvancedConsoleLogger, type DataSourceOptions, type EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import { QueueFullError } from '../common/limits/bounded-semaphore';
import { DeadlineExceededError } from '../common/timing/deadline';
import type { AppConfig } from '../config/app-config';

/**
 * Deadlines for MySQL/MariaDB (docs/reliability.md, "The database"). A server that stops
 * answering on open connections must not hang requests: without these, a query waits for ever,
 * the pool's wait queue grows without bound, and a row lock waits InnoDB's 50 s.
 *
 * Each one goes through a public door (docs/design-and-performance.md, "Only public APIs of libraries"):
 * - every statement gets mysql2's per-query timeout, which TypeORM passes on when
 *   `enableQueryTimeout` is set (the timeout is `maxQueryExecutionTime`); past it the connection is
 *   destroyed by a TypeORM subscriber (mysql2 reports the timeout but keeps the connection, whose
 *   next command would queue behind the stalled one with no timer of its own), so the pool opens
 *   a fresh one when the server is back;
 * - a request waits for a pooled connection (connecting included) at most DATABASE_POOL_WAIT_MS,
 *   and at most DATABASE_POOL_QUEUE_LIMIT requests wait at all (mysql2's `queueLimit`): mysql2 has
 *   no wait deadline of its own, so TypeORM gets, through its `driver` option, mysql2 with a
 *   `createPool` whose pool hands out connections within the deadline;
 * - every session gets `innodb_lock_wait_timeout` in the pool's `connection` event, before
 *   anything else runs on it.
 */
export type MysqlDeadlineConfig = Pick<AppConfig, 'DATABASE_QUERY_TIMEOUT_MS' | 'DATABASE_POOL_WAIT_MS' | 'DATABASE_POOL_QUEUE_LIMIT' | 'DATABASE_LOCK_WAIT_SECONDS'>;

/** Error codes database-errors.ts treats as "unavailable" (503). */
export const POOL_TIMEOUT_CODE = 'DATABASE_POOL_TIMEOUT';

/** mysql2's code for a statement past its `timeout`. */
const STATEMENT_TIMEOUT_CODE = 'PROTOCOL_SEQUENCE_TIMEOUT';

type MysqlDataSourceOptions = Extract<DataSourceOptions, { type: 'mysql' | 'mariadb' }>;
type AfterQueryEvent = Parameters<NonNullable<EntitySubscriberInterface['afterQuery']>>[0];
type ConnectionCallback = (error: NodeJS.ErrnoException | null, connection?: mysql2.PoolConnection) => void;

/** The TypeORM options that install the deadlines. */
export function mysqlDeadlineOptions(config: MysqlDeadlineConfig): Pick<MysqlDataSourceOptions, 'driver' | 'enableQueryTimeout' | 'maxQueryExecutionTime' | 'subscribers' | 'logger'> {
  return {
    driver: deadlineDriver(config),
    enableQueryTimeout: true,
    maxQueryExecutionTime: config.DATABASE_QUERY_TIMEOUT_MS,
    subscribers: [DropTimedOutConnection],
    // TypeORM logs every statement that reaches maxQueryExecutionTime, parameters included,
    // whatever `logging` says: a timed-out statement is already a 503 and a metric.
    logger: new WithoutSlowQueryLog(false),
  };
}

/**
 * The same data source options without the per-statement deadline, for migrations
 * (migration-runner.ts); the pool wait, its queue and the lock-wait bound stay.
 */
export function withoutStatementDeadline(options: DataSourceOptions): DataSourceOptions {
  return options.type === 'mysql' ? { ...options, enableQueryTimeout: false } : options;
}

/** mysql2 as TypeORM loads it, with a `createPool` that bounds the wait for a connection. */
function deadlineDriver(config: MysqlDeadlineConfig): typeof mysql2 {
  const createPool = (options: mysql2.PoolOptions): DeadlinePool => new DeadlinePool(openPool(options, config, []), config, options);
  // A copy with own enumerable keys: TypeORM refuses a driver object without any.
  return { ...mysql2, createPool } as unknown as typeof mysql2;
}

/** A mysql2 pool whose sessions get the lock-wait bound, then `sessionSettings`, before anything else. */
function openPool(options: mysql2.PoolOptions, config: MysqlDeadlineConfig, sessionSettings: readonly string[]): mysql2.Pool {
  const pool = mysql2.createPool({ ...options, queueLimit: config.DATABASE_POOL_QUEUE_LIMIT });
  // Queued first on a new connection, so it runs before whatever the pool's caller sends.
  pool.on('connection', (connection) => {
    for (const setting of [`SET SESSION innodb_lock_wait_timeout = ${Math.floor(config.DATABASE_LOCK_WAIT_SECONDS)}`, ...sessionSettings]) {
      connection.query(setting, () => undefined);
    }
  });
  return pool;
}

/**
 * The pool as TypeORM's MySQL driver uses it (`getConnection` and `end`), each passed on to
 * mysql2's pool through its public methods, with the wait for a connection bounded; plus `query`
 * for SqlReader, and `readPool` for the reads it batches (mysql-read-batches.ts).
 */
export class DeadlinePool {
  private reads: DeadlinePool | undefined;

  constructor(
    private readonly pool: mysql2.Pool,
    private readonly config: MysqlDeadlineConfig,
    private readonly options: mysql2.PoolOptions,
  ) {}

  /**
   * A second pool, opened on first use, whose connections accept several statements in one
   * command (mysql2's `multipleStatements`) and are read-only for the whole session: a batch of
   * reads costs one round trip, and no statement sent on it can write, whatever its text.
   */
  readPool(): DeadlinePool {
    this.reads ??= new DeadlinePool(openPool({ ...this.options, multipleStatements: true }, this.config, ['SET SESSION TRANSACTION READ ONLY']), this.config, this.options);
    return this.reads;
  }

  getConnection(callback: ConnectionCallback): void {
    const { config } = this;
    // A plain timer, not a Deadline (common/timing/deadline.ts): nothing here takes a signal, and
    // this runs for every statement, where an AbortController and its listeners showed in profiles.
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      callback(Object.assign(new DeadlineExceededError('waiting for a database connection', config.DATABASE_POOL_WAIT_MS), { code: POOL_TIMEOUT_CODE }));
    }, config.DATABASE_POOL_WAIT_MS);
    timer.unref();
    this.pool.getConnection((error, connection) => {
      clearTimeout(timer);
      if (settled) {
        // The caller gave up: hand the late connection back to the pool.
        connection?.release();
        return;
      }
      settled = true;
      if (error?.message === 'Queue limit reached.') {
        callback(new QueueFullError('the database connection pool', config.DATABASE_POOL_QUEUE_LIMIT));
        return;
      }
      callback(error, connection);
    });
  }

  /**
   * One statement on a pooled connection through mysql2's callback API, with the same deadlines
   * as TypeORM's path: the pool wait above and the statement timeout, past which the connection is
   * destroyed (see DropTimedOutConnection). SqlReader's reads come here.
   */
  query<T>(sql: string, values: readonly unknown[]): Promise<T> {
    return new Promise((resolve, reject) => {
      this.getConnection((error, connection) => {
        if (error || !connection) {
          reject(error ?? new Error('no connection'));
          return;
        }
        connection.query({ sql, values: values as unknown[], timeout: this.config.DATABASE_QUERY_TIMEOUT_MS }, (queryError, rows) => {
          if ((queryError as { code?: string } | null)?.code === STATEMENT_TIMEOUT_CODE) {
            connection.destroy();
          } else {
            connection.release();
          }
          if (queryError) {
            reject(queryError);
          } else {
            resolve(rows as T);
          }
        });
      });
    });
  }

  end(callback?: (error: NodeJS.ErrnoException | null) => void): void {
    const reads = this.reads;
    if (!reads) {
      this.pool.end(callback);
      return;
    }
    reads.end(() => this.pool.end(callback));
  }
}

/**
 * Destroys the connection of a statement that passed its deadline, so it never goes back to the
 * pool; the runner's release that follows finds it out of the pool already. Listed only in the
 * options of a data source with statement deadlines.
 */
@EventSubscriber()
export class DropTimedOutConnection implements EntitySubscriberInterface {
  async afterQuery(event: AfterQueryEvent): Promise<void> {
    if ((event.error as { code?: string } | undefined)?.code !== STATEMENT_TIMEOUT_CODE) {
      return;
    }
    // The runner holds the connection the statement ran on; connect() hands that one back.
    const connection = (await event.queryRunner.connect()) as mysql2.PoolConnection;
    connection.destroy();
  }
}

/** TypeORM's default logger, minus the slow-query log that the statement deadline turns on. */
class WithoutSlowQueryLog extends AdvancedConsoleLogger {
  override logQuerySlow(): void {
    // Intentionally empty: see mysqlDeadlineOptions.
  }
}
