import { valueCheck } from './target-limits';

describe('what a MariaDB column holds', () => {
  const check = (declared: string, type: Parameters<typeof valueCheck>[2], value: string | number | boolean | null): string | null => valueCheck('mysql', declared, type)?.(value) ?? null;

  it('integers within the column type\'s range', () => {
    expect(check('int(11)', 'integer', 2147483647)).toBeNull();
    expect(check('int(11)', 'integer', 2 ** 40)).toMatch(/outside the column's range/);
    expect(check('int(11)', 'integer', 1.5)).toMatch(/not an integer/);
    expect(check('int(11)', 'integer', 1e300)).toMatch(/not an integer|outside/);
    expect(check('bigint(20)', 'integer', '9223372036854775807')).toBeNull();
    expect(check('bigint(20)', 'integer', '9223372036854775808')).toMatch(/outside/);
    expect(check('tinyint(4)', 'boolean', true)).toBeNull();
  });

  it('texts by characters (varchar) or bytes (text), and no lone surrogates', () => {
    expect(check('varchar(16)', 'text', 'あ'.repeat(16))).toBeNull();
    expect(check('varchar(16)', 'text', 'x'.repeat(17))).toMatch(/17 characters; the column holds 16/);
    expect(check('varchar(16)', 'text', '😀'.repeat(16))).toBeNull();
    expect(check('text', 'text', 'あ'.repeat(21845))).toBeNull();
    expect(check('text', 'text', 'あ'.repeat(21846))).toMatch(/65538 bytes; the column holds 65535/);
    expect(check('mediumtext', 'text', 'x'.repeat(70000))).toBeNull();
    expect(check('text', 'text', 'a\uD800b')).toMatch(/surrogate/);
  });

  it('finite numbers and date-times MariaDB takes', () => {
    expect(check('double', 'real', 'Infinity')).toMatch(/not a finite number/);
    expect(check('datetime(3)', 'datetime', '2026-01-01T00:00:00.000Z')).toBeNull();
    expect(check('datetime(3)', 'datetime', 'yesterday')).toMatch(/not a date-time/);
    expect(check('datetime(3)', 'datetime', '0999-01-01T00:00:00.000Z')).toMatch(/not a date-time/);
  });

  it('SQLite takes anything but an integer beyond 64 bits in an integer column', () => {
    expect(valueCheck('sqlite', 'varchar(16)', 'text')).toBeNull();
    expect(valueCheck('sqlite', 'integer', 'integer')?.('9223372036854775808')).toMatch(/outside/);
    expect(valueCheck('sqlite', 'integer', 'integer')?.(5)).toBeNull();
  });
});
