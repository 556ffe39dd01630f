import type { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * Column shapes shared by every migration so that SQLite and MySQL get the same schema.
 * Times are DATETIME(3) in UTC; lookup keys use a binary collation on MySQL so that the
 * normalisation done in code, not the server's collation, decides what is equal.
 */
export const columns = {
  id: (name = 'id'): TableColumnOptions => ({
    name,
    type: 'integer',
    isPrimary: true,
    isGenerated: true,
    generationStrategy: 'increment',
  }),
  int: (name: string, nullable = false): TableColumnOptions => ({ name, type: 'integer', isNullable: nullable }),
  bigint: (name: string, nullable = false): TableColumnOptions => ({ name, type: 'bigint', isNullable: nullable }),
  real: (name: string, nullable = false): TableColumnOptions => ({ name, type: 'double', isNullable: nullable }),
  bool: (name: string, defaultValue = false): TableColumnOptions => ({
    name,
    type: 'boolean',
    isNullable: false,
    default: defaultValue ? 1 : 0,
  }),
  varchar: (name: string, length: number, nullable = false): TableColumnOptions => ({
    name,
    type: 'varchar',
    length: String(length),
    isNullable: nullable,
  }),
  text: (name: string, nullable = true): TableColumnOptions => ({ name, type: 'text', isNullable: nullable }),
  time: (name: string, nullable = false): TableColumnOptions => ({
    name,
    type: 'datetime',
    precision: 3,
    isNullable: nullable,
  }),
  uuid: (name: string, nullable = false): TableColumnOptions => ({ name, type: 'varchar', length: '36', isNullable: nullable }),
};

/** A varchar compared byte for byte on MySQL (SQLite compares binary by default). */
export function keyColumn(queryRunner: QueryRunner, name: string, length: number, nullable = false): TableColumnOptions {
  const isMysql = queryRunner.connection.options.type === 'mysql';
  return { ...columns.varchar(name, length, nullable), ...(isMysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}) };
}
