import type { EntityManager, QueryResult } from 'typeorm';

/** What a write reports: the rows it changed (matched, on MySQL) and the id an INSERT created. */
export interface WriteResult {
  affectedRows: number;
  insertId?: number;
}

/**
 * An open transaction, with the one shape every query has in this codebase (docs/design-and-performance.md,
 * "One way to read, one way to write"): parameterised SQL in, plain typed rows out. Services get it
 * from `UnitOfWork.transaction` and only hand it to the repositories they call; repositories run
 * their queries on it. TypeORM's EntityManager stays behind this seam: entities declare the schema
 * for migrations and the DataSource, and no repository hydrates them.
 */
export class Transaction {
  readonly isMysql: boolean;
  private readonly afterCommit: Array<() => void> = [];

  constructor(private readonly manager: EntityManager) {
    this.isMysql = manager.connection.options.type === 'mysql';
  }

  async one<T>(sql: string, parameters: readonly unknown[] = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, parameters);
    return rows[0];
  }

  all<T>(sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
    return this.manager.query<T[]>(sql, [...parameters]);
  }

  /**
   * A statement that returns no rows. The drivers report differently (better-sqlite3: changes and
   * lastInsertRowid; mysql2: a result header), TypeORM's structured result carries both.
   */
  async run(sql: string, parameters: readonly unknown[] = []): Promise<WriteResult> {
    const runner = this.manager.queryRunner;
    if (!runner) {
      throw new Error('A Transaction runs on the query runner of its transaction.');
    }
    const result: QueryResult = await runner.query(sql, [...parameters], true);
    const raw: unknown = result.raw;
    const insertId = this.isMysql ? (raw as { insertId?: number } | undefined)?.insertId : raw;
    return { affectedRows: result.affected ?? 0, ...(typeof insertId === 'number' || typeof insertId === 'bigint' ? { insertId: Number(insertId) } : {}) };
  }

  /** `INSERT IGNORE` in the dialect of the connection (skips rows that hit a unique key). */
  get insertIgnore(): string {
    return this.isMysql ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  }

  /** A row lock on MySQL; nothing on SQLite, whose write transactions are serialised already. */
  get forUpdate(): string {
    return this.isMysql ? ' FOR UPDATE' : '';
  }

  /** A datetime parameter (see `datetimeParameter`). */
  time(date: Date): Date | string {
    return datetimeParameter(this.isMysql, date);
  }

  /** Runs `callback` once the transaction has committed (never after a rollback). */
  onCommit(callback: () => void): void {
    this.afterCommit.push(callback);
  }

  /** Called by UnitOfWork after the commit. */
  committed(): void {
    for (const callback of this.afterCommit.splice(0)) {
      callback();
    }
  }
}

/**
 * A datetime parameter for hand-written SQL: on SQLite the same text TypeORM writes (so stored
 * values compare as strings: "2026-11-22 03:04:05.000", UTC); mysql2 formats Dates itself (the pool
 * runs in UTC).
 */
export function datetimeParameter(isMysql: boolean, date: Date): Date | string {
  return isMysql ? date : date.toISOString().slice(0, 23).replace('T', ' ');
}
