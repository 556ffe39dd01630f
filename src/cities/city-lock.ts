/**
 * The named lock every city write takes (`UnitOfWork.transaction(work, { lock: CITIES_LOCK })`):
 * it serialises check-then-write rules (overlaps, per-owner limits, one pending request per city
 * and type) — a row lock on MySQL, the UnitOfWork queue on SQLite.
 */
export const CITIES_LOCK = 'cities';
