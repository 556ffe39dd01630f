import type { DatabaseKind, LogicalType, PortableValue } from './backup-format';

/**
 * What a column of the target database can hold, from its declared type as the database reports
 * it (MariaDB: information_schema COLUMN_TYPE; SQLite: the declared type). SQLite holds almost
 * anything; MariaDB's columns have ranges and lengths a SQLite database does not enforce, so a
 * restore from SQLite into MariaDB checks each value first (docs/outgrowing-sqlite.md).
 */
export type ValueCheck = (value: PortableValue) => string | null;

const INT_RANGES: Record<string, [bigint, bigint]> = {
  tinyint: [-128n, 127n],
  smallint: [-32768n, 32767n],
  mediumint: [-8388608n, 8388607n],
  int: [-2147483648n, 2147483647n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
};
const INT64: [bigint, bigint] = [-9223372036854775808n, 9223372036854775807n];
const TEXT_BYTES: Record<string, number> = { tinytext: 255, text: 65535, mediumtext: 16777215, longtext: 4294967295 };

/** A lone UTF-16 surrogate: no UTF-8 (utf8mb4) spelling exists for it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function integerProblem(value: PortableValue, [min, max]: [bigint, bigint]): string | null {
  if (typeof value === 'boolean') {
    return null;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    return `${value} is not an integer`;
  }
  if (typeof value === 'string' && !/^-?\d+$/.test(value)) {
    return `"${value.slice(0, 40)}" is not an integer`;
  }
  const number = BigInt(value as number | string);
  return number < min || number > max ? `${String(value)} is outside the column's range ${min}..${max}` : null;
}

function textProblem(value: PortableValue, maxChars: number | null, maxBytes: number | null): string | null {
  const text = String(value);
  if (LONE_SURROGATE.test(text)) {
    return 'the text holds an unpaired UTF-16 surrogate, which utf8mb4 cannot store';
  }
  if (maxChars !== null) {
    const chars = [...text].length;
    if (chars > maxChars) {
      return `a text of ${chars} characters; the column holds ${maxChars}`;
    }
  }
  if (maxBytes !== null) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > maxBytes) {
      return `a text of ${bytes} bytes; the column holds ${maxBytes}`;
    }
  }
  return null;
}

const ISO_TIME = /^(\d{4})-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The check for one target column, or null when it takes any value of the backup's type. */
export function valueCheck(target: DatabaseKind, declared: string, type: LogicalType): ValueCheck | null {
  const lower = declared.toLowerCase();
  const base = /^[a-z]+/.exec(lower)?.[0] ?? lower;
  if (target === 'sqlite') {
    if (type === 'integer' && base.includes('int')) {
      return (value) => (value === null || typeof value !== 'string' || !/^-?\d+$/.test(value) ? null : integerProblem(value, INT64));
    }
    return null;
  }
  if (base in INT_RANGES && !(base === 'tinyint' && type === 'boolean')) {
    const range = INT_RANGES[base];
    const unsigned = lower.includes('unsigned');
    return (value) => (value === null ? null : integerProblem(value, unsigned ? [0n, range[1] * 2n + 1n] : range));
  }
  if (base === 'double' || base === 'float' || base === 'real') {
    return (value) => (value === null || typeof value === 'number' || typeof value === 'boolean' ? null : `${String(value)} is not a finite number`);
  }
  if (base === 'datetime' || base === 'timestamp') {
    return (value) => {
      if (value === null) {
        return null;
      }
      const match = ISO_TIME.exec(String(value));
      return !match || Number(match[1]) < 1000 ? `${String(value).slice(0, 40)} is not a date-time MariaDB holds` : null;
    };
  }
  if (base === 'varchar' || base === 'char') {
    const length = Number(/\((\d+)\)/.exec(lower)?.[1] ?? 255);
    return (value) => (value === null ? null : textProblem(value, length, null));
  }
  if (base in TEXT_BYTES) {
    const bytes = TEXT_BYTES[base];
    return (value) => (value === null ? null : textProblem(value, null, bytes));
  }
  return null;
}
