import type { OnApplicationShutdown } from '@nestjs/common';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { boundedCache, heldBy, type MemoryBounds, stringBytes } from '../common/memory/bounded-cache';
import { DeadlinePool } from './mysql-deadlines';
import { MysqlReadBatches } from './mysql-read-batches';
import { datetimeParameter } from './transaction';

/**
 * Prepared statements kept, by count and bytes (docs/reliability.md, "Lifetime"): the hot reads
 * use a few dozen fixed SQL texts, but a text built per call (an IN list of varying length) must
 * not pile up statements for the life of the process. A forgotten statement is prepared again.
 */
export const STATEMENT_CACHE_BOUNDS: MemoryBounds = { maxEntries: 500, maxBytes: 4 * 1024 * 1024 };
/** SQLite's compiled program of a small statement, held natively beside its text: an estimate. */
const PREPARED_STATEMENT_BYTES = 4096;

/**
 * Every read outside a transaction (docs/design-and-performance.md, "One way to read, one way to
 * write"): plain parameterised SQL, no query builder and no entity hydration.
 *
 * On SQLite it runs prepared statements directly on TypeORM's better-sqlite3 connection (a few
 * microseconds, cached per SQL text); on MySQL the reads of one turn of the event loop go out as one
 * command on a read-only pool beside TypeORM's, through mysql2's callback API with the same
 * deadlines (mysql-read-batches.ts): TypeORM's query runner (a runner, a promise wrapper and a
 * captured stack per statement) and a round trip per statement were most of the time of a request
 * that reads five things (docs/design-and-performance.md, "Reads share a round trip on MySQL"). Profiles of the read
 * endpoints showed TypeORM's query building and hydration as the largest cost per request, so every
 * read uses this, and every write goes through UnitOfWork's Transaction in the same shape.
 *
 * On a SQLite file it reads through a connection of its own: TypeORM's single shared connection
 * would show a reader the uncommitted rows of whatever write transaction is open at that moment;
 * a second connection in WAL mode sees only committed data. It is opened read-write but with
 * `query_only`, so it cannot write, yet can checkpoint and remove the WAL if it closes last.
 *
 * Made by `SqlReader.open` (DatabaseModule provides it through a factory).
 */
export class SqlReader implements OnApplicationShutdown {
  private readonly statements = boundedCache<string, Statement>(STATEMENT_CACHE_BOUNDS, (sql) => stringBytes(sql) + PREPARED_STATEMENT_BYTES);
  private dataVersionStatement: Statement | undefined;
  /** `PRAGMA data_version` as read in this turn of the event loop (see `changeCounter`). */
  private turnCounter: number | undefined;
  private readonly endTurn = (): void => {
    this.turnCounter = undefined;
  };
  readonly isMysql: boolean;
  /** MySQL with deadlines: reads skip TypeORM, batched per turn (see `mysqlQuery`). */
  private readonly mysqlReads: MysqlReadBatches | undefined;

  private constructor(
    private readonly dataSource: DataSource,
    private readonly sqlite: Database | undefined,
    private readonly ownConnection: boolean,
  ) {
    this.isMysql = dataSource.options.type === 'mysql';
    // TypeORM's MySQL driver keeps the pool it made in its public `pool` property; with the
    // deadline options it is ours (mysql-deadlines.ts), and reads skip TypeORM's query runner.
    const pool = (dataSource.driver as { pool?: unknown }).pool;
    this.mysqlReads = pool instanceof DeadlinePool ? new MysqlReadBatches(pool.readPool()) : undefined;
  }

  /**
   * TypeORM's better-sqlite3 handle comes from its public `QueryRunner.connect()`, which on SQLite
   * resolves to the one connection every runner shares (docs/design-and-performance.md, "Only
   * public APIs of libraries"); its name is the file the reader opens again.
   */
  static async open(dataSource: DataSource): Promise<SqlReader> {
    if (dataSource.options.type !== 'better-sqlite3') {
      return new SqlReader(dataSource, undefined, false);
    }
    const runner = dataSource.createQueryRunner();
    let shared: Database;
    try {
      shared = (await runner.connect()) as Database;
    } finally {
      await runner.release();
    }
    // An in-memory database exists only on its one connection.
    if (shared.memory) {
      return new SqlReader(dataSource, shared, false);
    }
    const own = new BetterSqlite3(shared.name, { fileMustExist: true });
    own.pragma('query_only = ON');
    own.pragma('busy_timeout = 2000');
    return new SqlReader(dataSource, own, true);
  }

  onApplicationShutdown(): void {
    if (this.ownConnection) {
      this.sqlite?.close();
    }
  }

  /**
   * SQLite's `PRAGMA data_version` on the reader's own connection: it changes whenever another
   * connection (this process's writer, or another process) commits to the file. Undefined where no
   * such counter exists (MySQL; an in-memory database, whose one connection is also the writer and
   * so never sees its own commits counted).
   *
   * Asked once per turn of the event loop, not once per read: the pragma takes SQLite's shared
   * lock on the WAL index (two `fcntl` calls and an `fstat`, 1.4 µs on a quiet machine, 3–4 µs
   * per request under load), a tenth of a cached read's whole cost. Within one turn every request
   * being handled arrived before the turn began, so it is concurrent with a commit another process
   * makes during the turn and may be answered as of the turn's start; a request sent after that
   * commit is read from its socket in a later turn, which asks again. This process's own commits
   * forget the value at once (`forgetChangeCounter`, called by UnitOfWork), so a read that follows
   * a write in the same request sees the write (docs/design-and-performance.md, "Per-key read caches").
   */
  changeCounter(): number | undefined {
    if (!this.sqlite || !this.ownConnection) {
      return undefined;
    }
    if (this.turnCounter === undefined) {
      this.dataVersionStatement ??= this.sqlite.prepare('PRAGMA data_version').pluck();
      this.turnCounter = this.dataVersionStatement.get() as number;
      setImmediate(this.endTurn);
    }
    return this.turnCounter;
  }

  /**
   * Whether a read waits for the end of the turn of the event loop before it is sent (MySQL with
   * deadlines: `mysqlQuery`). Then every request handled in this turn arrived before any read it
   * starts is sent, and an identical read started by two of them may answer both (DataVersions).
   */
  get readsWaitForTurnEnd(): boolean {
    return this.mysqlReads !== undefined;
  }

  /** This process committed (or tried to): the next `changeCounter()` asks SQLite again. */
  forgetChangeCounter(): void {
    this.turnCounter = undefined;
  }

  /** Prepared statements held (for tests and diagnostics). */
  get heldStatements(): { entries: number; bytes: number } {
    return heldBy(this.statements, STATEMENT_CACHE_BOUNDS);
  }

  /** A datetime parameter in the form the columns hold (see `datetimeParameter`). */
  time(date: Date): Date | string {
    return datetimeParameter(this.isMysql, date);
  }

  async one<T>(sql: string, parameters: readonly unknown[] = []): Promise<T | undefined> {
    if (this.sqlite) {
      return this.statement(sql).get(...parameters) as T | undefined;
    }
    const rows = await this.mysqlQuery<T[]>(sql, parameters);
    return rows[0];
  }

  async all<T>(sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
    if (this.sqlite) {
      return this.statement(sql).all(...parameters) as T[];
    }
    return this.mysqlQuery<T[]>(sql, parameters);
  }

  private mysqlQuery<T>(sql: string, parameters: readonly unknown[]): Promise<T> {
    return this.mysqlReads ? this.mysqlReads.read<T>(sql, parameters) : this.dataSource.query<T>(sql, [...parameters]);
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.sqlite!.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
