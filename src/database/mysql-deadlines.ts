import * as mysql2 from 'mysql2';
import { AdvancedConsoleLogger, type DataSourceOptions, type EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import { QueueFullError } from '../common/limits/bounded-semaphore';
import { DeadlineExceededError, startDeadline } from '../common/timing/deadline';
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
  const createPool = (options: mysql2.PoolOptions): DeadlinePool => {
    const pool = mysql2.createPool({ ...options, queueLimit: config.DATABASE_POOL_QUEUE_LIMIT });
    // Queued first on a new connection, so it runs before whatever the pool's caller sends.
    pool.on('connection', (connection) => {
      connection.query(`SET SESSION innodb_lock_wait_timeout = ${Math.floor(config.DATABASE_LOCK_WAIT_SECONDS)}`, () => undefined);
    });
    return new DeadlinePool(pool, config);
  };
  // A copy with own enumerable keys: TypeORM refuses a driver object without any.
  return { ...mysql2, createPool } as unknown as typeof mysql2;
}

/**
 * The pool as TypeORM's MySQL driver uses it (`getConnection` and `end`, nothing else), each
 * passed on to mysql2's pool through its public methods, with the wait for a connection bounded.
 */
class DeadlinePool {
  constructor(
    private readonly pool: mysql2.Pool,
    private readonly config: MysqlDeadlineConfig,
  ) {}

  getConnection(callback: ConnectionCallback): void {
    const { config } = this;
    const deadline = startDeadline(config.DATABASE_POOL_WAIT_MS, { what: 'waiting for a database connection' });
    let settled = false;
    const onTimeout = (): void => {
      settled = true;
      callback(Object.assign(new DeadlineExceededError('waiting for a database connection', config.DATABASE_POOL_WAIT_MS), { code: POOL_TIMEOUT_CODE }));
    };
    deadline.signal.addEventListener('abort', onTimeout, { once: true });
    this.pool.getConnection((error, connection) => {
      deadline.signal.removeEventListener('abort', onTimeout);
      deadline.dispose();
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

  end(callback?: (error: NodeJS.ErrnoException | null) => void): void {
    this.pool.end(callback);
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
