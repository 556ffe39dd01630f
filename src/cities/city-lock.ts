import type { EntityManager } from 'typeorm';
import type { UnitOfWork } from '../database/unit-of-work';

/**
 * Serialises every city write (check-then-write of overlaps, per-owner limits, one pending request
 * per city and type). On MySQL this takes the row lock on `app_locks('cities')` with a plain
 * SELECT … FOR UPDATE: the row is inserted by the cities migration, because
 * `UnitOfWork.lock()`'s INSERT IGNORE first takes a shared lock on the existing row and two
 * transactions upgrading it to exclusive deadlock each other. SQLite: the UnitOfWork queue already serialises.
 */
export async function lockCities(unitOfWork: UnitOfWork, manager: EntityManager): Promise<void> {
  if (unitOfWork.isSqlite) {
    return;
  }
  const rows = await manager.query<unknown[]>("SELECT name FROM app_locks WHERE name = 'cities' FOR UPDATE");
  if (rows.length === 0) {
    await unitOfWork.lock(manager, 'cities');
  }
}
