/** Driver-neutral classification of database errors (better-sqlite3 and mysql2). */

interface DriverError {
  code?: unknown;
  errno?: unknown;
  driverError?: DriverError;
}

function driverError(error: unknown): DriverError | undefined {
  if (typeof error !== 'object' || error === null) {
    return undefined;
  }
  const outer = error as DriverError;
  return outer.driverError ?? outer;
}

export function isUniqueViolation(error: unknown): boolean {
  const inner = driverError(error);
  return inner?.code === 'SQLITE_CONSTRAINT_UNIQUE' || inner?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || inner?.code === 'ER_DUP_ENTRY';
}

const unavailableCodes = new Set([
  // mysql-deadlines.ts: no pooled connection within DATABASE_POOL_WAIT_MS.
  'DATABASE_POOL_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  // Still a deadlock victim after UnitOfWork's retries: contention, not a bug; the client may retry.
  'ER_LOCK_DEADLOCK',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
]);

/** True when the database could not be reached or was too busy: the caller should answer 503. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const inner = driverError(error);
  if (typeof inner?.code === 'string' && unavailableCodes.has(inner.code)) {
    return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /Pool is closed|Connection lost|connect ETIMEDOUT|Can't add new command when connection is in closed state/i.test(message);
}

/**
 * What kind of database failure an error is, for the metrics; undefined when it is not a
 * database error at all (a validation error, a 404, …).
 */
export function databaseErrorKind(error: unknown): 'unavailable' | 'deadlock' | 'query' | undefined {
  if (isDeadlock(error)) {
    return 'deadlock';
  }
  if (isDatabaseUnavailable(error)) {
    return 'unavailable';
  }
  const inner = driverError(error);
  const code = typeof inner?.code === 'string' ? inner.code : '';
  const name = error instanceof Error ? error.name : '';
  return code.startsWith('ER_') || code.startsWith('SQLITE_') || name === 'QueryFailedError' ? 'query' : undefined;
}

/** InnoDB chose this transaction as a deadlock victim and rolled it back (safe to run again). */
export function isDeadlock(error: unknown): boolean {
  const inner = driverError(error);
  return inner?.code === 'ER_LOCK_DEADLOCK' || inner?.errno === 1213;
}
