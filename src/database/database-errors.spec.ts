import { databaseErrorKind } from './database-errors';

const driverError = (code: string, errno?: number) => Object.assign(new Error(code), { code, errno });

describe(databaseErrorKind.name, () => {
  it('names deadlocks, outages and other query errors of both drivers', () => {
    expect(databaseErrorKind(driverError('ER_LOCK_DEADLOCK', 1213))).toBe('deadlock');
    expect(databaseErrorKind({ driverError: driverError('ER_LOCK_DEADLOCK', 1213) })).toBe('deadlock');
    expect(databaseErrorKind(driverError('ECONNREFUSED'))).toBe('unavailable');
    expect(databaseErrorKind(driverError('SQLITE_BUSY'))).toBe('unavailable');
    expect(databaseErrorKind(new Error('Pool is closed.'))).toBe('unavailable');
    expect(databaseErrorKind(driverError('ER_NO_SUCH_TABLE'))).toBe('query');
    expect(databaseErrorKind(driverError('SQLITE_ERROR'))).toBe('query');
    expect(databaseErrorKind(Object.assign(new Error('x'), { name: 'QueryFailedError' }))).toBe('query');
  });

  it('is undefined for anything that is not a database error', () => {
    expect(databaseErrorKind(new Error('boom'))).toBeUndefined();
    expect(databaseErrorKind(Object.assign(new Error('bad'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE' }))).toBeUndefined();
    expect(databaseErrorKind(undefined)).toBeUndefined();
    expect(databaseErrorKind('text')).toBeUndefined();
  });
});
