/**
 * A MariaDB database that does not exist, named. The error serializer masks every quoted value of
 * a database error's message ("Unknown database ?"), which hides the one thing the operator must
 * fix; the name is taken from DATABASE_URL instead (never its user or password).
 */

interface DriverError {
  code?: unknown;
  errno?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

function isUnknownDatabase(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 8) {
    return false;
  }
  const record = error as DriverError;
  if (record.code === 'ER_BAD_DB_ERROR' || record.errno === 1049) {
    return true;
  }
  return isUnknownDatabase(record.driverError, depth + 1) || isUnknownDatabase(record.cause, depth + 1);
}

/** Host, port and database of a mysql:// or mariadb:// URL; undefined for anything else. */
function whereIs(databaseUrl: string): { database: string; server: string } | undefined {
  if (!/^(mysql|mariadb):\/\//.test(databaseUrl)) {
    return undefined;
  }
  try {
    const url = new URL(databaseUrl);
    return { database: decodeURIComponent(url.pathname.replace(/^\//, '')), server: `${url.hostname}:${url.port || '3306'}` };
  } catch {
    return undefined;
  }
}

/**
 * The operator's message when `error` says the configured MariaDB database does not exist, else
 * undefined: "The database community does not exist on db:3306 (DATABASE_URL): create it …".
 */
export function missingDatabaseMessage(error: unknown, databaseUrl: string): string | undefined {
  if (!isUnknownDatabase(error)) {
    return undefined;
  }
  const where = whereIs(databaseUrl);
  if (where === undefined) {
    return undefined;
  }
  return where.database === ''
    ? `DATABASE_URL names no database on ${where.server}: add it at the end (mysql://USER:PASS@HOST:PORT/DATABASE)`
    : `The database ${where.database} does not exist on ${where.server} (DATABASE_URL): create it (CREATE DATABASE \`${where.database}\` CHARACTER SET utf8mb4) or correct the name`;
}
