import { stdSerializers } from 'pino';

/**
 * Properties of database errors that carry bound values: TypeORM's `parameters`, mysql2's
 * `sql` (the statement with the values inlined) and the nested `driverError`. Token hashes,
 * password hashes and personal data would otherwise reach the log.
 */
const DROPPED = ['parameters', 'sql', 'driverError', 'values'];
/** MySQL's messages quote values ("Duplicate entry 'x' for key", "Incorrect string value: '\xE6…'"). */
const VALUE_IN_MESSAGE = /'[^']*'|"[^"]*"|`[^`]*`/g;

type Serialized = Record<string, unknown> & { type: string; message: string; stack: string };

function isDatabaseError(error: Record<string, unknown>): boolean {
  return 'driverError' in error || 'sqlMessage' in error || 'sqlState' in error || (typeof error.code === 'string' && error.code.startsWith('SQLITE_'));
}

/** Messages of database errors in the chain (the error, its causes, their driver errors): pino repeats them in `message` and `stack`. */
function databaseMessages(error: unknown, found: string[] = [], depth = 0): string[] {
  if (!(error instanceof Error) || depth > 8) {
    return found;
  }
  const record = error as unknown as Record<string, unknown>;
  if (isDatabaseError(record)) {
    found.push(error.message);
    if (typeof record.sqlMessage === 'string') {
      found.push(record.sqlMessage);
    }
  }
  databaseMessages(record.driverError, found, depth + 1);
  return databaseMessages(error.cause, found, depth + 1);
}

function scrubbed(text: string, messages: string[]): string {
  return messages.reduce((out, message) => (message === '' ? out : out.split(message).join(message.replace(VALUE_IN_MESSAGE, '?'))), text);
}

/**
 * pino's `err` serializer, minus every bound value of a database error: parameters and the
 * inlined SQL are dropped, quoted values in messages replaced by '?'. The driver's code,
 * errno and SQL state stay, and so does TypeORM's `query` (placeholders only).
 */
export function serializeError(error: unknown): Serialized {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: String(error), stack: '' };
  }
  const serialized = stdSerializers.err(error) as Serialized;
  const messages = databaseMessages(error).sort((a, b) => b.length - a.length);
  if (messages.length === 0) {
    return serialized;
  }
  for (const name of DROPPED) {
    delete serialized[name];
  }
  for (const name of ['message', 'stack', 'sqlMessage'] as const) {
    const value = serialized[name];
    if (typeof value === 'string') {
      serialized[name] = scrubbed(value, messages);
    }
  }
  if (error.cause instanceof Error) {
    serialized.cause = serializeError(error.cause);
  }
  return serialized;
}
