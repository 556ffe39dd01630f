import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { boundedCache, type MemoryBounds, stringBytes } from '../common/memory/bounded-cache';

/**
 * Prepared statements kept, by count and bytes (docs/reliability.md, "Lifetime"): the hot reads
 * use a few dozen fixed SQL texts, but a text built per call (an IN list of varying length) must
 * not pile up statements for the life of the process. A forgotten statement is prepared again.
 */
export const STATEMENT_CACHE_BOUNDS: MemoryBounds = { maxEntries: 500, maxBytes: 4 * 1024 * 1024 };
/** SQLite's compiled program of a small statement, held natively beside its text: an estimate. */
const PREPARED_STATEMENT_BYTES = 4096;

/**
 * The hot read path: plain parameterised SQL, no query builder and no entity hydration.
 *
 * On SQLite it runs prepared statements directly on TypeORM's better-sqlite3 connection (a few
 * microseconds, cached per SQL text); on MySQL it goes through the pool. Profiles of the read
 * endpoints showed TypeORM's query building and hydration as the largest cost per request, so the
 * most-read lookups use this, and every write keeps going through TypeORM and UnitOfWork.
 *
 * On a SQLite file it reads through a connection of its own: TypeORM's single shared connection
 * would show a reader the uncommitted rows of whatever write transaction is open at that moment;
 * a second connection in WAL mode sees only committed data. It is opened read-write but with
 * `query_only`, so it cannot write, yet can checkpoint and remove the WAL if it closes last.
 */
@Injectable()
export class SqlReader implements OnApplicationShutdown {
  private readonly sqlite: Database | undefined;
  private readonly ownConnection: boolean;
  private readonly statements = boundedCache<string, Statement>(STATEMENT_CACHE_BOUNDS, (sql) => stringBytes(sql) + PREPARED_STATEMENT_BYTES);
  private dataVersionStatement: Statement | undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    if (dataSource.options.type !== 'better-sqlite3') {
      this.sqlite = undefined;
      this.ownConnection = false;
      return;
    }
    const shared = (dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection;
    // An in-memory database exists only on its one connection.
    this.ownConnection = !shared.memory;
    this.sqlite = this.ownConnection ? new BetterSqlite3(shared.name, { fileMustExist: true }) : shared;
    if (this.ownConnection) {
      this.sqlite.pragma('query_only = ON');
      this.sqlite.pragma('busy_timeout = 2000');
    }
  }

  onApplicationShutdown(): void {
    if (this.ownConnection) {
      this.sqlite?.close();
    }
  }

  /**
   * SQLite's `PRAGMA data_version` on the reader's own connection: it changes whenever another
   * connection (this process's writer, or another process) commits to the file, and costs about a
   * microsecond. Undefined where no such counter exists (MySQL; an in-memory database, whose one
   * connection is also the writer and so never sees its own commits counted).
   */
  changeCounter(): number | undefined {
    if (!this.sqlite || !this.ownConnection) {
      return undefined;
    }
    this.dataVersionStatement ??= this.sqlite.prepare('PRAGMA data_version').pluck();
    return this.dataVersionStatement.get() as number;
  }

  /** Prepared statements held (for tests and diagnostics). */
  get heldStatements(): { entries: number; bytes: number } {
    return { entries: this.statements.size, bytes: this.statements.calculatedSize };
  }

  async one<T>(sql: string, parameters: readonly unknown[] = []): Promise<T | undefined> {
    if (this.sqlite) {
      return this.statement(sql).get(...parameters) as T | undefined;
    }
    const rows = await this.dataSource.query<T[]>(sql, [...parameters]);
    return rows[0];
  }

  async all<T>(sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
    if (this.sqlite) {
      return this.statement(sql).all(...parameters) as T[];
    }
    return this.dataSource.query<T[]>(sql, [...parameters]);
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
