import { DateUtils, type EntityManager, type QueryResult } from 'typeorm';

/**
 * Runs a write and returns how many rows it changed. TypeORM's own InsertResult hides this on
 * SQLite (it reports the last row id), and `INSERT IGNORE` counts are what tell accepted
 * records from repeats.
 */
export async function executeCountingRows(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result: QueryResult = await runner.query(sql, parameters, true);
    return result.affected ?? 0;
  } finally {
    if (runner !== manager.queryRunner) {
      await runner.release();
    }
  }
}

/** `INSERT IGNORE` in the dialect of the connection (skips rows that hit a unique key). */
export function insertIgnore(manager: EntityManager): string {
  return isMysql(manager) ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
}

export function isMysql(manager: EntityManager): boolean {
  return manager.connection.options.type === 'mysql';
}

/**
 * A datetime parameter for hand-written SQL: on SQLite the same text TypeORM writes (so stored
 * values compare as strings); mysql2 formats Dates itself (the pool runs in UTC).
 */
export function datetimeParameter(manager: EntityManager, date: Date): Date | string {
  return isMysql(manager) ? date : (DateUtils.mixedDateToUtcDatetimeString(date) as string);
}
