import { createHash } from 'node:crypto';
import { decodeValue, encodeValue, logicalTypeOf, rowLine, TableDigest } from './backup-format';

describe('backup values', () => {
  it('reads both databases\' declared types as the same logical types', () => {
    expect(['integer', 'int(11)', 'bigint', 'bigint(20)'].map(logicalTypeOf)).toEqual(['integer', 'integer', 'integer', 'integer']);
    expect(['boolean', 'tinyint', 'tinyint(4)'].map(logicalTypeOf)).toEqual(['boolean', 'boolean', 'boolean']);
    expect(['double', 'datetime', 'datetime(3)', 'varchar(16)', 'text', 'mediumtext', 'blob'].map(logicalTypeOf)).toEqual(['real', 'datetime', 'datetime', 'text', 'text', 'text', 'blob']);
  });

  it('encodes what either driver returns the same way', () => {
    // better-sqlite3 with safe integers / mysql2 with big number strings
    expect(encodeValue('integer', 42n)).toBe(42);
    expect(encodeValue('integer', '42')).toBe(42);
    expect(encodeValue('integer', 2n ** 62n)).toBe('4611686018427387904');
    expect(encodeValue('integer', '4611686018427387904')).toBe('4611686018427387904');
    // SQLite keeps a real in an integer column; it travels as it is
    expect(encodeValue('integer', 1e300)).toBe(1e300);
    expect(encodeValue('real', Infinity)).toBe('Infinity');
    expect(encodeValue('boolean', 1n)).toBe(true);
    expect(encodeValue('boolean', 0)).toBe(false);
    expect(encodeValue('datetime', '2026-11-22 03:04:05.000')).toBe('2026-11-22T03:04:05.000Z');
    expect(encodeValue('datetime', '2026-11-22 03:04:05.1')).toBe('2026-11-22T03:04:05.100Z');
    expect(encodeValue('datetime', new Date('2026-11-22T03:04:05.006Z'))).toBe('2026-11-22T03:04:05.006Z');
    expect(encodeValue('blob', Buffer.from([0, 255]))).toBe('AP8=');
    expect(encodeValue('text', null)).toBeNull();
    expect(() => encodeValue('text', { a: 1 })).toThrow(/never return/);
  });

  it('decodes for either database and round-trips', () => {
    expect(decodeValue('datetime', '2026-11-22T03:04:05.006Z')).toBe('2026-11-22 03:04:05.006');
    expect(decodeValue('integer', '4611686018427387904')).toBe(2n ** 62n);
    expect(decodeValue('boolean', true)).toBe(1);
    expect(decodeValue('blob', 'AP8=')).toEqual(Buffer.from([0, 255]));
    expect(decodeValue('real', '-Infinity')).toBe(-Infinity);
    for (const [type, value] of [['integer', 7], ['text', 'ü'], ['datetime', '2026-01-01T00:00:00.000Z'], ['boolean', false]] as const) {
      expect(encodeValue(type, decodeValue(type, value))).toBe(value);
    }
  });
});

describe(TableDigest.name, () => {
  it('does not depend on row order, and any change, loss or extra row changes it', () => {
    const lines = [rowLine([1, 'a']), rowLine([2, 'b']), rowLine([3, null])];
    const digest = (rows: string[]): string => {
      const d = new TableDigest();
      rows.forEach((row) => d.add(row));
      return d.hex;
    };
    expect(digest([...lines].reverse())).toBe(digest(lines));
    expect(digest(lines.slice(1))).not.toBe(digest(lines));
    expect(digest([...lines, rowLine([4, 'd'])])).not.toBe(digest(lines));
    expect(digest([rowLine([1, 'A']), ...lines.slice(1)])).not.toBe(digest(lines));
    expect(digest(lines)).toMatch(/^[0-9a-f]{64}$/);
    // The sum of the row hashes modulo 2^256, as BigInt arithmetic has it.
    const sha = (line: string): bigint => BigInt(`0x${createHash('sha256').update(line).digest('hex')}`);
    const expected = lines.reduce((sum, line) => (sum + sha(line)) % (1n << 256n), 0n);
    expect(digest(lines)).toBe(expected.toString(16).padStart(64, '0'));
    const overflowing = Array.from({ length: 50 }, (_, index) => rowLine([index]));
    expect(digest(overflowing)).toBe((overflowing.reduce((sum, line) => sum + sha(line), 0n) % (1n << 256n)).toString(16).padStart(64, '0'));
  });
});
