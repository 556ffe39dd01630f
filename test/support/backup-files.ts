import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BackupManifest, PortableValue, rowLine, TableDigest } from '../../src/backup/backup-format';
import type { TableSchema } from '../../src/backup/database-access';

/** A backup file's manifest and body lines, to make damaged or foreign variants of it. */
export interface BackupParts {
  manifest: BackupManifest;
  /** The lines after the manifest: table markers, rows, the end line. */
  body: string[];
}

export function readBackupParts(path: string): BackupParts {
  const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n');
  lines.pop();
  return { manifest: JSON.parse(lines[0]) as BackupManifest, body: lines.slice(1) };
}

/** Writes the parts as a backup file; with `recount`, row counts and checksums are made to match the body (a well-formed file). */
export function writeBackupParts(path: string, parts: BackupParts, options: { recount?: boolean } = {}): void {
  if (options.recount) {
    let table: string | null = null;
    const digests = new Map<string, TableDigest>();
    for (const line of parts.body) {
      if (line.startsWith('[')) {
        digests.get(table!)!.add(line);
      } else {
        const marker = JSON.parse(line) as { table?: string };
        table = marker.table ?? null;
        if (table) {
          digests.set(table, new TableDigest());
        }
      }
    }
    for (const described of parts.manifest.tables) {
      const digest = digests.get(described.name) ?? new TableDigest();
      described.rows = digest.rows;
      described.sha256 = digest.hex;
    }
  }
  writeFileSync(path, Buffer.concat([gzipSync(`${JSON.stringify(parts.manifest)}\n`), gzipSync(`${parts.body.join('\n')}\n`)]), { mode: 0o600 });
}

/** The body without one table (its marker and rows). */
export function withoutTable(parts: BackupParts, name: string): BackupParts {
  const body: string[] = [];
  let skipping = false;
  for (const line of parts.body) {
    if (!line.startsWith('[')) {
      skipping = (JSON.parse(line) as { table?: string }).table === name;
    }
    if (!skipping) {
      body.push(line);
    }
  }
  return { manifest: { ...parts.manifest, tables: parts.manifest.tables.filter((table) => table.name !== name) }, body };
}

/**
 * The body and manifest as a backup taken at an older schema level would hold them: only the
 * tables `schema` (the schema the migrations made at that level) has, and of each only the columns
 * it had then. Whatever later migrations add (tables anywhere in SCHEMA_TABLES' order, columns)
 * is left out, and so are the rows whose primary key (values as text, JSON) `leaveOut` names for
 * their table (rows a later migration seeds). The migrations list is the caller's to cut.
 * Recount when writing.
 */
export function atSchema(parts: BackupParts, schema: readonly TableSchema[], leaveOut: ReadonlyMap<string, ReadonlySet<string>> = new Map()): BackupParts {
  const columnsThen = new Map(schema.map((table) => [table.name, new Set(table.columns.map((column) => column.name))]));
  const kept = new Map<string, number[]>();
  const tables = parts.manifest.tables
    .filter((table) => columnsThen.has(table.name))
    .map((table) => {
      const then = columnsThen.get(table.name)!;
      const indexes = table.columns.flatMap((column, index) => (then.has(column.name) ? [index] : []));
      kept.set(table.name, indexes);
      return { ...table, columns: indexes.map((index) => table.columns[index]), primaryKey: table.primaryKey.filter((name) => then.has(name)) };
    });
  const body: string[] = [];
  let current: { indexes: number[]; all: boolean; key: number[]; leaveOut: ReadonlySet<string> } | null = null;
  let skipping = false;
  for (const line of parts.body) {
    if (!line.startsWith('[')) {
      const table = (JSON.parse(line) as { table?: string }).table;
      skipping = table !== undefined && !kept.has(table);
      const indexes = table === undefined ? undefined : kept.get(table);
      const described = table === undefined ? undefined : parts.manifest.tables.find((candidate) => candidate.name === table);
      current =
        indexes && described
          ? {
              indexes,
              all: indexes.length === described.columns.length,
              key: described.primaryKey.map((name) => described.columns.findIndex((column) => column.name === name)),
              leaveOut: leaveOut.get(table!) ?? new Set(),
            }
          : null;
      if (!skipping) {
        body.push(line);
      }
    } else if (!skipping) {
      const values = JSON.parse(line) as PortableValue[];
      if (current!.leaveOut.has(JSON.stringify(current!.key.map((index) => String(values[index]))))) {
        continue;
      }
      body.push(current!.all ? line : rowLine(current!.indexes.map((index) => values[index])));
    }
  }
  return { manifest: { ...parts.manifest, tables }, body };
}

/** The first `fraction` of the file's bytes: a copy cut off part-way. */
export function cutFile(from: string, to: string, fraction: number): void {
  const bytes = readFileSync(from);
  writeFileSync(to, bytes.subarray(0, Math.floor(bytes.length * fraction)));
}
