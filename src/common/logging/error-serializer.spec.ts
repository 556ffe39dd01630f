import { QueryFailedError } from 'typeorm';
import { serializeError } from './error-serializer';

function mysqlDuplicate(): QueryFailedError {
  const driverError = Object.assign(new Error("Duplicate entry 'hash-of-a-token' for key 'api_keys.IDX_hash'"), {
    code: 'ER_DUP_ENTRY',
    errno: 1062,
    sqlState: '23000',
    sqlMessage: "Duplicate entry 'hash-of-a-token' for key 'api_keys.IDX_hash'",
    sql: "INSERT INTO `api_keys` (`key_hash`) VALUES ('hash-of-a-token')",
  });
  return new QueryFailedError('INSERT INTO `api_keys` (`key_hash`) VALUES (?)', ['hash-of-a-token'], driverError);
}

describe(serializeError.name, () => {
  it('drops bound parameters, the inlined SQL and quoted values of a database error', () => {
    const out = serializeError(mysqlDuplicate()) as Record<string, unknown>;
    expect(JSON.stringify(out)).not.toContain('hash-of-a-token');
    expect(out).toMatchObject({ type: 'QueryFailedError', code: 'ER_DUP_ENTRY', errno: 1062, sqlState: '23000', query: 'INSERT INTO `api_keys` (`key_hash`) VALUES (?)' });
    expect(out.message).toBe('Duplicate entry ? for key ?');
    expect(out.stack).toMatch(/^QueryFailedError: Duplicate entry \? for key \?\n/);
    expect(out).not.toHaveProperty('parameters');
    expect(out).not.toHaveProperty('driverError');
  });

  it('scrubs a database error given as the cause of another', () => {
    const wrapped = new Error('storing failed', { cause: mysqlDuplicate() });
    expect(JSON.stringify(serializeError(wrapped))).not.toContain('hash-of-a-token');
  });

  it('leaves other errors as pino shows them', () => {
    const out = serializeError(new TypeError("bad 'thing'")) as Record<string, unknown>;
    expect(out).toMatchObject({ type: 'TypeError', message: "bad 'thing'" });
    expect(serializeError('text')).toMatchObject({ message: 'text' });
  });
});
