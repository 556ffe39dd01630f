import { databaseErrorKind } from './database-errors';
import type { DeadlinePool } from './mysql-deadlines';

/**
 * At most this many statements share one command: a batch stays one small packet, and a burst of
 * reads still spreads over several connections.
 */
export const MAX_BATCH_STATEMENTS = 16;

interface PendingRead {
  sql: string;
  values: readonly unknown[];
  resolve: (rows: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The reads issued in one turn of the event loop, sent to MySQL as one command
 * (docs/design-and-performance.md, "Reads share a round trip on MySQL"). A players-site page reads
 * up to five things per request, from as many features, and each statement cost a socket write
 * and a wake-up of the database: most of the time of such a request. Batched, a turn's reads
 * (every request handled in it) cost one write and one answer.
 *
 * Each read still answers as if sent alone: its own rows, its own error. A batch whose statement
 * fails (an SQL error) is sent again one statement at a time, so the failure reaches only its
 * read; a batch that fails as a whole (the database unreachable, a deadline passed) fails every
 * read in it, with that error, at once. The statements run one after another on one connection,
 * each in its own autocommit, as they would on several: no read waits for another's lock.
 *
 * The pool is `DeadlinePool.readPool()`: read-only sessions, the same deadlines as every statement.
 */
export class MysqlReadBatches {
  private pending: PendingRead[] = [];
  private scheduled = false;

  constructor(
    private readonly pool: DeadlinePool,
    private readonly maxStatements = MAX_BATCH_STATEMENTS,
  ) {}

  /**
   * The rows of `sql` (one SELECT, `?` placeholders), sent with the other reads of this turn. A
   * text of several statements is refused, as SQLite refuses it: its answers would be taken for
   * the next reads' in a command.
   */
  read<T>(sql: string, values: readonly unknown[]): Promise<T> {
    const statement = withoutTrailingSemicolon(sql);
    if (statement.includes(';')) {
      return Promise.reject(new Error('A read is one statement.'));
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ sql: statement, values, resolve: resolve as (rows: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After this turn's I/O callbacks: every request parsed in this turn adds its reads first.
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const reads = this.pending;
    this.pending = [];
    for (let start = 0; start < reads.length; start += this.maxStatements) {
      this.send(reads.slice(start, start + this.maxStatements));
    }
  };

  private send(reads: PendingRead[]): void {
    if (reads.length === 1) {
      this.sendAlone(reads[0]);
      return;
    }
    const sql = reads.map((read) => read.sql).join(';\n');
    const values = reads.flatMap((read) => read.values);
    this.pool.query<unknown[]>(sql, values).then(
      (results) => {
        reads.forEach((read, index) => read.resolve(results[index]));
      },
      (error: unknown) => {
        if (isStatementError(error)) {
          for (const read of reads) {
            this.sendAlone(read);
          }
        } else {
          for (const read of reads) {
            read.reject(error);
          }
        }
      },
    );
  }

  private sendAlone(read: PendingRead): void {
    this.pool.query(read.sql, read.values).then(read.resolve, read.reject);
  }
}

/**
 * An error the database gave for one statement (an SQL error), as opposed to the connection, the
 * server being full or gone, or a deadline (database-errors.ts's "unavailable", and mysql2's fatal
 * errors): only the former is worth sending the command's reads again one by one.
 */
function isStatementError(error: unknown): boolean {
  const { code, fatal } = (error ?? {}) as { code?: unknown; fatal?: unknown };
  return typeof code === 'string' && code.startsWith('ER_') && fatal !== true && databaseErrorKind(error) === 'query';
}

function withoutTrailingSemicolon(sql: string): string {
  return sql.replace(/[\s;]+$/, '');
}
