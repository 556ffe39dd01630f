import * as mysql2 from 'mysql2';
import type { DataSource } from 'typeorm';
import { QueueFullError } from '../common/limits/bounded-semaphore';
import { DeadlineExceededError, startDeadline } from '../common/timing/deadline';
import type { AppConfig } from '../config/app-config';

/**
 * Deadlines for MySQL/MariaDB (docs/reliability.md, "The database"). A server that stops
 * answering on open connections must not hang requests: without these, a query waits for ever,
 * the pool's wait queue grows without bound, and a row lock waits InnoDB's 50 s.
 *
 * - every statement gets mysql2's per-query timeout; past it the connection is destroyed (mysql2
 *   reports the timeout but keeps the connection, whose next command would queue behind the
 *   stalled one with no timer of its own), so the pool opens a fresh one when the server is back;
 * - a request waits for a pooled connection (connecting included) at most DATABASE_POOL_WAIT_MS,
 *   and at most DATABASE_POOL_QUEUE_LIMIT requests wait at all;
 * - every session gets `innodb_lock_wait_timeout`, set as the connection is made, before anything
 *   else runs on it.
 *
 * They are installed through TypeORM's `driver` option: a copy of mysql2 whose `createPool`
 * wraps the pool, so the very first connection (made by TypeORM at initialise) is covered too.
 */
export type MysqlDeadlineConfig = Pick<AppConfig, 'DATABASE_QUERY_TIMEOUT_MS' | 'DATABASE_POOL_WAIT_MS' | 'DATABASE_POOL_QUEUE_LIMIT' | 'DATABASE_LOCK_WAIT_SECONDS'>;

/** Error codes database-errors.ts treats as "unavailable" (503). */
export const POOL_TIMEOUT_CODE = 'DATABASE_POOL_TIMEOUT';

type Callback = (error: (Error & { code?: string }) | null, ...rest: unknown[]) => void;

interface GuardedConnection {
  query(sql: unknown, values?: unknown, callback?: unknown): unknown;
  destroy(): void;
}

interface GuardedPool {
  getConnection(callback: Callback): void;
  on(event: 'connection', listener: (connection: GuardedConnection) => void): unknown;
}

/** Per driver: the query deadline can be suspended (migrations rewrite whole tables). */
interface DeadlineState {
  suspended: number;
}

const GUARD = Symbol('mysql deadlines');

type GuardedDriver = typeof mysql2 & { [GUARD]: DeadlineState };

export function guardedMysqlDriver(config: MysqlDeadlineConfig): GuardedDriver {
  const state: DeadlineState = { suspended: 0 };
  const createPool = (options: mysql2.PoolOptions): mysql2.Pool => {
    const pool = mysql2.createPool({ ...options, queueLimit: config.DATABASE_POOL_QUEUE_LIMIT });
    const guarded = pool as unknown as GuardedPool;
    guarded.on('connection', (connection) => guardConnection(connection, config, state));
    const getConnection = guarded.getConnection.bind(pool);
    guarded.getConnection = (callback) => getConnectionWithin(getConnection, config, callback);
    return pool;
  };
  // A copy with own enumerable keys: TypeORM refuses a driver object without any.
  return { ...mysql2, createPool, [GUARD]: state } as GuardedDriver;
}

function guardConnection(connection: GuardedConnection, config: MysqlDeadlineConfig, state: DeadlineState): void {
  const query = connection.query.bind(connection);
  // Queued first, so it runs before whatever the pool's caller sends.
  query(`SET SESSION innodb_lock_wait_timeout = ${Math.floor(config.DATABASE_LOCK_WAIT_SECONDS)}`, undefined, () => undefined);
  connection.query = (sql: unknown, values?: unknown, callback?: unknown): unknown => {
    const done = (typeof values === 'function' ? values : callback) as Callback | undefined;
    const parameters = typeof values === 'function' ? undefined : values;
    if (state.suspended > 0 || done === undefined) {
      return query(sql, values, callback);
    }
    const timeout = config.DATABASE_QUERY_TIMEOUT_MS;
    const options = typeof sql === 'string' ? { sql, timeout } : { timeout, ...(sql as object) };
    return query(options, parameters, (error: (Error & { code?: string }) | null, ...rest: unknown[]) => {
      if (error?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') {
        connection.destroy();
      }
      done(error, ...rest);
    });
  };
}

function getConnectionWithin(getConnection: (callback: Callback) => void, config: MysqlDeadlineConfig, callback: Callback): void {
  const deadline = startDeadline(config.DATABASE_POOL_WAIT_MS, { what: 'waiting for a database connection' });
  let settled = false;
  const onTimeout = (): void => {
    settled = true;
    callback(Object.assign(new DeadlineExceededError('waiting for a database connection', config.DATABASE_POOL_WAIT_MS), { code: POOL_TIMEOUT_CODE }));
  };
  deadline.signal.addEventListener('abort', onTimeout, { once: true });
  getConnection((error, connection, ...rest) => {
    deadline.signal.removeEventListener('abort', onTimeout);
    deadline.dispose();
    if (settled) {
      // The caller gave up: hand the late connection back to the pool.
      (connection as { release?: () => void } | undefined)?.release?.();
      return;
    }
    settled = true;
    if (error?.message === 'Queue limit reached.') {
      callback(new QueueFullError('the database connection pool', config.DATABASE_POOL_QUEUE_LIMIT));
      return;
    }
    callback(error, connection, ...rest);
  });
}

/**
 * Runs `work` without the per-statement deadline: migrations and the migration lock wait may
 * legitimately take minutes. The pool and lock-wait bounds stay.
 */
export async function withoutQueryDeadline<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const state = (dataSource.options as { driver?: Partial<GuardedDriver> }).driver?.[GUARD];
  if (!state) {
    return work();
  }
  state.suspended += 1;
  try {
    return await work();
  } finally {
    state.suspended -= 1;
  }
}
