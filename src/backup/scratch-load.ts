import { readBackupRows } from './backup-file';
import { BackupManifest, BackupTable, decodeValue, PortableValue, encodeValue, rowLine, rowName, TableDigest } from './backup-format';
import { SCHEMA_TABLES } from './backup-tables';
import type { DatabaseReader, RowWriter, TableSchema } from './database-access';
import { Refused } from './refusals';
import { valueCheck, ValueCheck } from './target-limits';

/** A row the target cannot hold: the restore refuses and names every one. */
export interface RowProblem {
  row: string;
  column: string;
  reason: string;
}

export class RowsRefused extends Refused {
  constructor(readonly problems: RowProblem[]) {
    super(
      `${problems.length} row${problems.length === 1 ? '' : 's'} of the backup cannot be held by this database (fix them in the source and take a new backup): ` +
        problems.map((problem) => `${problem.row} column ${problem.column}: ${problem.reason}`).join('; '),
    );
  }
}

/**
 * The scratch copy's tables (migrated to the backup's level) must be exactly the manifest's, with
 * the same columns: anything else is a foreign or partial schema, refused.
 */
export function checkSchemaMatches(manifest: BackupManifest, scratch: TableSchema[]): void {
  const names = new Set(scratch.map((table) => table.name));
  const missing = scratch.filter((table) => !manifest.tables.some((described) => described.name === table.name)).map((table) => table.name);
  if (missing.length > 0) {
    throw new Refused(`the backup lacks table${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of its own schema level (a partial or foreign backup)`);
  }
  for (const table of manifest.tables) {
    if (!names.has(table.name)) {
      throw new Refused(`the backup holds table ${table.name}, which is not part of this service's schema at the backup's level (a foreign backup)`);
    }
    const columns = new Set(scratch.find((candidate) => candidate.name === table.name)!.columns.map((column) => column.name));
    const own = new Set(table.columns.map((column) => column.name));
    const differ = [...columns].filter((name) => !own.has(name)).concat([...own].filter((name) => !columns.has(name)));
    if (differ.length > 0) {
      throw new Refused(`the backup's table ${table.name} has other columns than this version's schema at the backup's level (${differ.join(', ')})`);
    }
  }
}

/** Every schema table present after the migrations, and nothing else. */
export function checkFinalSchema(tables: TableSchema[]): void {
  const names = tables.map((table) => table.name).sort();
  const expected = [...SCHEMA_TABLES].sort();
  if (names.join(',') !== expected.join(',')) {
    throw new Refused(`the restored copy does not have this version's tables after the migrations (has ${names.join(', ')})`);
  }
}

const BATCH_ROWS = 1000;

/**
 * Loads every row of the file into the scratch copy (cleared first: the migrations' seed rows
 * come back from the backup), checking each value against what the target's column holds. Rows
 * the target cannot hold are not written; they are collected and the restore refused with all of
 * them named. The file's own checksums are verified as it is read.
 */
export async function loadRows(path: string, scratch: TableSchema[], writer: RowWriter, target: 'sqlite' | 'mysql'): Promise<BackupManifest> {
  const problems: RowProblem[] = [];
  const cleared = new Set<string>();
  let current: BackupTable | undefined;
  let checks: Array<ValueCheck | null> = [];
  let batch: unknown[][] = [];
  let batchValues: PortableValue[][] = [];
  const flush = async (): Promise<void> => {
    if (current && batch.length > 0) {
      const refused = await writer.insert(
        current.name,
        current.columns.map((column) => column.name),
        batch,
      );
      for (const { index, reason } of refused) {
        problems.push({ row: rowName(current, batchValues[index]), column: '(row)', reason });
      }
    }
    batch = [];
    batchValues = [];
  };
  const rows = readBackupRows(path);
  let manifest: BackupManifest | undefined;
  for (;;) {
    const next = await rows.next();
    if (next.done) {
      manifest = next.value;
      break;
    }
    const { table, values } = next.value;
    if (table !== current) {
      await flush();
      current = table;
      if (!cleared.has(table.name)) {
        for (const schema of scratch) {
          if (!cleared.has(schema.name)) {
            await writer.clear(schema.name);
            cleared.add(schema.name);
          }
        }
      }
      const schema = scratch.find((candidate) => candidate.name === table.name)!;
      checks = table.columns.map((column) => valueCheck(target, schema.columns.find((own) => own.name === column.name)!.declared, column.type));
    }
    let bad = false;
    values.forEach((value, index) => {
      const problem = checks[index]?.(value) ?? null;
      if (problem) {
        bad = true;
        problems.push({ row: rowName(table, values), column: table.columns[index].name, reason: problem });
      }
    });
    if (!bad) {
      batch.push(values.map((value, index) => decodeValue(table.columns[index].type, value)));
      batchValues.push(values);
      if (batch.length >= BATCH_ROWS) {
        await flush();
      }
    }
  }
  await flush();
  for (const schema of scratch) {
    if (!cleared.has(schema.name)) {
      await writer.clear(schema.name);
    }
  }
  if (problems.length > 0) {
    throw new RowsRefused(problems);
  }
  return manifest;
}

/** Reads the scratch copy back and compares every table's row count and checksum with the manifest. */
export async function checkScratchRows(reader: DatabaseReader, manifest: BackupManifest): Promise<void> {
  for (const table of manifest.tables) {
    const digest = new TableDigest();
    for await (const row of reader.rows(
      table.name,
      table.columns.map((column) => column.name),
    )) {
      digest.add(rowLine(row.map((value, index) => encodeValue(table.columns[index].type, value))));
    }
    if (digest.rows !== table.rows) {
      throw new Refused(`the restored copy of ${table.name} holds ${digest.rows} rows, the backup ${table.rows}`);
    }
    if (digest.hex !== table.sha256) {
      throw new Refused(`the restored copy of ${table.name} differs from the backup (checksum): a value did not survive the load`);
    }
  }
}

/** `restore --check FILE` against the configured target: the rows it could not hold, without writing anything. */
export async function rowsTheTargetCannotHold(path: string, targetTables: TableSchema[], target: 'sqlite' | 'mysql'): Promise<RowProblem[]> {
  const problems: RowProblem[] = [];
  let current: BackupTable | undefined;
  let checks: Array<ValueCheck | null> = [];
  for await (const { table, values } of readBackupRows(path)) {
    if (table !== current) {
      current = table;
      const schema = targetTables.find((candidate) => candidate.name === table.name);
      checks = table.columns.map((column) => {
        const declared = schema?.columns.find((own) => own.name === column.name)?.declared;
        return declared ? valueCheck(target, declared, column.type) : null;
      });
    }
    values.forEach((value, index) => {
      const problem = checks[index]?.(value) ?? null;
      if (problem) {
        problems.push({ row: rowName(table, values), column: table.columns[index].name, reason: problem });
      }
    });
  }
  return problems;
}
