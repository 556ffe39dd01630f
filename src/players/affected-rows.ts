import type { EntityManager, QueryResult } from 'typeorm';

interface BuildsQuery {
  getQueryAndParameters(): [string, unknown[]];
}

/**
 * Runs a write built with the query builder and returns how many rows it changed. TypeORM's own
 * InsertResult hides this on SQLite (it reports the last row id), and `INSERT IGNORE` counts
 * are what tell accepted records from repeats.
 */
export async function executeCountingRows(manager: EntityManager, query: BuildsQuery): Promise<number> {
  const [sql, parameters] = query.getQueryAndParameters();
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
