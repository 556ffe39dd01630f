import type { EntityManager } from 'typeorm';
import type { UnitOfWork } from '../database/unit-of-work';

/**
 * Serialises every city write (check-then-write of overlaps, per-owner limits, one pending request
 * per city and type): a row lock on MySQL, the UnitOfWork queue on SQLite.
 */
export function lockCities(unitOfWork: UnitOfWork, manager: EntityManager): Promise<void> {
  return unitOfWork.lock(manager, 'cities');
}
