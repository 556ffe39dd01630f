import type { QueryRunner } from 'typeorm';

/**
 * On MySQL/MariaDB (docs/deployment.md, MySQL / MariaDB) every text column is utf8mb4, whatever the database's default
 * character set (a database created with the server default, latin1 on many installs, made
 * every Japanese write fail with "Incorrect string value").
 */
const TABLE_COLLATION = 'utf8mb4_unicode_ci';

/** Makes utf8mb4 the database default, so tables created later (by any migration) inherit it. */
export async function setDatabaseDefaultToUtf8mb4(runner: QueryRunner): Promise<void> {
  const [row] = (await runner.query(`SELECT DEFAULT_CHARACTER_SET_NAME AS charset, SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()`)) as Array<{
    charset: string;
    name: string;
  }>;
  if (row && row.charset !== 'utf8mb4') {
    await runner.query(`ALTER DATABASE \`${row.name.replace(/`/g, '``')}\` CHARACTER SET utf8mb4 COLLATE ${TABLE_COLLATION}`);
  }
}

interface ColumnRow {
  tableName: string;
  columnName: string;
  collation: string;
}

/**
 * Converts every table and text column of the current database that is not utf8mb4 yet.
 * Column by column (from SHOW CREATE TABLE), so each keeps its type, nullability and default,
 * and a binary collation stays binary (utf8mb4_bin). Returns the tables converted.
 */
export async function convertTablesToUtf8mb4(runner: QueryRunner): Promise<string[]> {
  const columns = (await runner.query(
    `SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName, COLLATION_NAME AS collation FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND CHARACTER_SET_NAME IS NOT NULL AND CHARACTER_SET_NAME <> 'utf8mb4'`,
  )) as ColumnRow[];
  const tables = (await runner.query(
    `SELECT TABLE_NAME AS tableName FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' AND TABLE_COLLATION NOT LIKE 'utf8mb4%'`,
  )) as Array<{ tableName: string }>;
  const byTable = new Map<string, ColumnRow[]>();
  for (const { tableName } of tables) {
    byTable.set(tableName, []);
  }
  for (const column of columns) {
    byTable.set(column.tableName, [...(byTable.get(column.tableName) ?? []), column]);
  }
  if (byTable.size === 0) {
    return [];
  }
  // MariaDB refuses to change a column a foreign key uses, whatever FOREIGN_KEY_CHECKS says: the
  // keys touching a converted column are dropped first and recreated afterwards, identical.
  const foreignKeys = (await foreignKeysOf(runner)).filter((key) =>
    key.columns.some((name) => columns.some((column) => column.tableName === key.table && column.columnName === name)) ||
    key.referencedColumns.some((name) => columns.some((column) => column.tableName === key.referencedTable && column.columnName === name)),
  );
  for (const key of foreignKeys) {
    await runner.query(`ALTER TABLE ${quote(key.table)} DROP FOREIGN KEY ${quote(key.name)}`);
  }
  for (const [table, tableColumns] of byTable) {
    const modifications = await columnModifications(runner, table, tableColumns);
    await runner.query(`ALTER TABLE ${quote(table)} DEFAULT CHARACTER SET utf8mb4 COLLATE ${TABLE_COLLATION}${modifications.map((m) => `, ${m}`).join('')}`);
  }
  for (const key of foreignKeys) {
    await runner.query(
      `ALTER TABLE ${quote(key.table)} ADD CONSTRAINT ${quote(key.name)} FOREIGN KEY (${key.columns.map(quote).join(', ')}) ` +
        `REFERENCES ${quote(key.referencedTable)} (${key.referencedColumns.map(quote).join(', ')}) ON DELETE ${key.onDelete} ON UPDATE ${key.onUpdate}`,
    );
  }
  return [...byTable.keys()];
}

interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

async function foreignKeysOf(runner: QueryRunner): Promise<ForeignKey[]> {
  const rows = (await runner.query(
    `SELECT k.CONSTRAINT_NAME AS name, k.TABLE_NAME AS tableName, k.COLUMN_NAME AS columnName, k.REFERENCED_TABLE_NAME AS referencedTable,
            k.REFERENCED_COLUMN_NAME AS referencedColumn, r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
      WHERE k.CONSTRAINT_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
  )) as Array<{ name: string; tableName: string; columnName: string; referencedTable: string; referencedColumn: string; onDelete: string; onUpdate: string }>;
  const keys = new Map<string, ForeignKey>();
  for (const row of rows) {
    const id = `${row.tableName}.${row.name}`;
    const key = keys.get(id) ?? { name: row.name, table: row.tableName, columns: [], referencedTable: row.referencedTable, referencedColumns: [], onDelete: row.onDelete, onUpdate: row.onUpdate };
    key.columns.push(row.columnName);
    key.referencedColumns.push(row.referencedColumn);
    keys.set(id, key);
  }
  return [...keys.values()];
}

async function columnModifications(runner: QueryRunner, table: string, tableColumns: ColumnRow[]): Promise<string[]> {
  if (tableColumns.length === 0) {
    return [];
  }
  const [created] = (await runner.query(`SHOW CREATE TABLE ${quote(table)}`)) as Array<Record<string, string>>;
  const definition = created?.['Create Table'] ?? '';
  const lines = definition.split('\n').map((line) => line.trim().replace(/,$/, ''));
  return tableColumns.map((column) => {
    const line = lines.find((candidate) => candidate.startsWith(`${quote(column.columnName)} `));
    if (!line) {
      throw new Error(`utf8mb4 conversion: column ${table}.${column.columnName} not found in SHOW CREATE TABLE`);
    }
    const rest = line.slice(quote(column.columnName).length + 1);
    // The type is the first token, with its parenthesised length or value list.
    const typeMatch = /^([a-z]+(?:\((?:[^()']|'(?:[^']|'')*')*\))?)(.*)$/i.exec(rest);
    if (!typeMatch) {
      throw new Error(`utf8mb4 conversion: cannot read the type of ${table}.${column.columnName}`);
    }
    const attributes = (typeMatch[2] ?? '').replace(/\s+CHARACTER SET \w+/i, '').replace(/\s+COLLATE \w+/i, '');
    const collation = column.collation.endsWith('_bin') ? 'utf8mb4_bin' : TABLE_COLLATION;
    return `MODIFY ${quote(column.columnName)} ${typeMatch[1]} CHARACTER SET utf8mb4 COLLATE ${collation}${attributes}`;
  });
}

function quote(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

