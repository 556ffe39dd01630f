// Shared by the scripts that write into a database (benchmarks, seeding): they build a database
// of their own by default and touch one they are pointed at only when told --yes-overwrite
// (docs/operations.md, Scripts that write data).
'use strict';

/** The value after `--name` on the command line, or `fallback`. */
function arg(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1] : fallback;
}

/** A database URL as it may be shown: the SQLite file, or host:port/database (never user or password). */
function describeDatabase(url) {
  if (url.startsWith('sqlite:')) {
    return url;
  }
  try {
    const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '3306'}${parsed.pathname}`;
  } catch {
    return 'the database named';
  }
}

/**
 * Throws a refusal (error.refused, the script exits 2 having changed nothing) unless the command
 * line says --yes-overwrite: `what` says what the script would do to the database at `url`.
 */
function refuseUnlessOverwriteAllowed(url, what) {
  if (process.argv.includes('--yes-overwrite')) {
    return;
  }
  const script = require('node:path').relative(process.cwd(), process.argv[1]) || process.argv[1];
  const error = new Error(
    `Refused: ${script} ${what} in ${describeDatabase(url)} (named by --database-url or DATABASE_URL), which may be a live database. ` +
      'Nothing was changed. Leave both out and it builds a database of its own; or add --yes-overwrite to use this one anyway.',
  );
  error.refused = true;
  throw error;
}

module.exports = { arg, describeDatabase, refuseUnlessOverwriteAllowed };
