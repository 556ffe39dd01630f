import { once } from 'node:events';
import { closeSync, createReadStream, createWriteStream, existsSync, fsyncSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { dirname, resolve } from 'node:path';
import { createGunzip, createGzip, gzipSync } from 'node:zlib';
import { SCHEMA_TABLES, tableOrder } from './backup-tables';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupManifest,
  BackupTable,
  encodeValue,
  logicalTypeOf,
  PortableValue,
  rowLine,
  TableDigest,
} from './backup-format';
import type { DatabaseReader } from './database-access';
import { checkMigrationLevel, knownMigrations } from './migration-levels';
import { messageOf, Refused } from './refusals';

export function head(path: string, bytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Collects output lines into chunks and writes them with backpressure. */
class LineSink {
  private buffer: string[] = [];
  private size = 0;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  async line(text: string): Promise<void> {
    this.buffer.push(text);
    this.size += text.length + 1;
    if (this.size >= 64 * 1024) {
      await this.flush();
    }
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) {
      return;
    }
    const chunk = `${this.buffer.join('\n')}\n`;
    this.buffer = [];
    this.size = 0;
    if (!this.stream.write(chunk)) {
      await once(this.stream, 'drain');
    }
  }
}

export interface WrittenBackup {
  path: string;
  bytes: number;
  manifest: BackupManifest;
  /** Tables the source holds that are not part of this service's schema (left out, named). */
  leftOut: string[];
}

/**
 * Writes a backup of what `source` sees (one snapshot) to `out`: the rows to a temporary body
 * file first, then the manifest and the body into `out.partial-<pid>` (mode 0600), which is read
 * back and verified like `restore --check` before it is renamed into place.
 */
export async function writeBackup(source: DatabaseReader, out: string, serviceVersion: string, now = new Date()): Promise<WrittenBackup> {
  const target = resolve(out);
  if (existsSync(target)) {
    throw new Refused(`${target} exists already; choose a new file name`);
  }
  if (!existsSync(dirname(target))) {
    throw new Refused(`the folder ${dirname(target)} does not exist`);
  }
  const partial = `${target}.partial-${process.pid}`;
  const body = `${partial}.body`;
  try {
    const migrations = await source.migrations();
    const all = await source.tables();
    const known = new Set<string>(SCHEMA_TABLES);
    const tables = all.filter((table) => known.has(table.name)).sort((a, b) => tableOrder(a.name) - tableOrder(b.name));
    const leftOut = all.filter((table) => !known.has(table.name)).map((table) => table.name);

    const gzip = createGzip({ level: 5 });
    const file = createWriteStream(body, { mode: 0o600, flags: 'wx' });
    const written = once(file, 'close');
    gzip.pipe(file);
    const sink = new LineSink(gzip);
    const described: BackupTable[] = [];
    for (const table of tables) {
      const columns = table.columns.map((column) => ({ name: column.name, type: logicalTypeOf(column.declared), nullable: column.nullable }));
      await sink.line(JSON.stringify({ table: table.name }));
      const digest = new TableDigest();
      for await (const row of source.rows(
        table.name,
        columns.map((column) => column.name),
      )) {
        const line = rowLine(row.map((value, index) => encodeValue(columns[index].type, value)));
        digest.add(line);
        await sink.line(line);
      }
      described.push({ name: table.name, columns, primaryKey: table.primaryKey, rows: digest.rows, sha256: digest.hex });
    }
    await sink.line(JSON.stringify({ end: true }));
    await sink.flush();
    gzip.end();
    await written;

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      serviceVersion,
      migrations,
      lastMigration: migrations.at(-1) ?? null,
      source: source.kind,
      createdAt: now.toISOString(),
      tables: described,
    };
    const fd = openSync(partial, 'wx', 0o600);
    try {
      writeSync(fd, gzipSync(`${JSON.stringify(manifest)}\n`));
      const copy = createReadStream(body);
      for await (const chunk of copy) {
        writeSync(fd, chunk as Buffer);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    rmSync(body, { force: true });
    try {
      await verifyBackupFile(partial);
    } catch (error) {
      throw new Error(`the file written did not verify: ${messageOf(error)}`, { cause: error });
    }
    renameSync(partial, target);
    fsyncPath(dirname(target));
    return { path: target, bytes: statSync(target).size, manifest, leftOut };
  } finally {
    rmSync(body, { force: true });
    rmSync(partial, { force: true });
  }
}

/** Lines of the decompressed file; a cut or damaged file ends in a refusal naming it. */
async function* lines(path: string): AsyncGenerator<string> {
  const input = createReadStream(path);
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for await (const chunk of gunzip) {
      const text = rest + decoder.write(chunk as Buffer);
      const parts = text.split('\n');
      rest = parts.pop()!;
      for (const part of parts) {
        yield part;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') {
      throw new Refused(`${path} does not exist`);
    }
    if (code === 'Z_BUF_ERROR' || /unexpected end/i.test(messageOf(error))) {
      throw new Refused(`${path} is truncated (the compressed data ends early): take the backup again or use the complete file`);
    }
    throw new Refused(`${path} is damaged or not a backup (${messageOf(error)})`);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
  rest += decoder.end();
  if (rest.length > 0) {
    yield rest;
  }
}

function parseManifest(path: string, line: string | undefined): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(line ?? '') as Partial<BackupManifest>;
  } catch {
    throw new Refused(`${path} is not a backup of this service (no manifest)`);
  }
  if (manifest?.format !== BACKUP_FORMAT) {
    throw new Refused(`${path} is not a backup of this service (format ${JSON.stringify(manifest?.format ?? null)})`);
  }
  if (typeof manifest.formatVersion !== 'number' || manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new Refused(`${path} has backup format version ${String(manifest.formatVersion)}, newer than this version reads (${BACKUP_FORMAT_VERSION}): restore it with the version that made it or a newer one`);
  }
  if (!Array.isArray(manifest.tables) || !Array.isArray(manifest.migrations) || (manifest.source !== 'sqlite' && manifest.source !== 'mysql')) {
    throw new Refused(`${path} has a damaged manifest`);
  }
  checkMigrationLevel(manifest.migrations);
  checkManifestTables(manifest as BackupManifest);
  return manifest as BackupManifest;
}

/**
 * The manifest's tables against this version's schema: a table it does not know is foreign;
 * at this version's own migration level every schema table must be there (older levels had
 * fewer tables: the restore compares those with the schema the migrations make).
 */
function checkManifestTables(manifest: BackupManifest): void {
  const known = new Set<string>(SCHEMA_TABLES);
  const foreign = manifest.tables.map((table) => table.name).filter((name) => !known.has(name));
  if (foreign.length > 0) {
    throw new Refused(`the backup holds table ${foreign.join(', ')}, which is not part of this service's schema (a foreign backup)`);
  }
  if (manifest.lastMigration === knownMigrations().at(-1)?.name) {
    const names = new Set(manifest.tables.map((table) => table.name));
    const missing = SCHEMA_TABLES.filter((name) => !names.has(name));
    if (missing.length > 0) {
      throw new Refused(`the backup lacks table${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of its own schema level (a partial or foreign backup)`);
    }
  }
}

/** The manifest alone (the first line): quick, and enough to refuse a foreign or newer file. */
export async function readManifest(path: string): Promise<BackupManifest> {
  for await (const line of lines(path)) {
    return parseManifest(path, line);
  }
  throw new Refused(`${path} is empty`);
}

export interface BackupRow {
  table: BackupTable;
  values: PortableValue[];
}

/**
 * Every row of the file, table by table, checking the structure on the way (table markers in
 * the manifest's order, the end line, nothing after it) and each table's row count and checksum
 * at its end: a row only counts as good once its whole table has verified, so a caller that
 * loads rows must not swap anything in before the iteration has finished.
 */
export async function* readBackupRows(path: string): AsyncGenerator<BackupRow, BackupManifest> {
  let manifest: BackupManifest | undefined;
  let tableIndex = -1;
  let digest = new TableDigest();
  let ended = false;
  const finishTable = (): void => {
    const table = manifest!.tables[tableIndex];
    if (!table) {
      return;
    }
    if (digest.rows !== table.rows) {
      throw new Refused(`${path}: table ${table.name} holds ${digest.rows} rows, the manifest says ${table.rows} (the file is damaged)`);
    }
    if (digest.hex !== table.sha256) {
      throw new Refused(`${path}: table ${table.name} does not match its checksum (the file is damaged)`);
    }
  };
  for await (const line of lines(path)) {
    if (!manifest) {
      manifest = parseManifest(path, line);
      continue;
    }
    if (ended) {
      throw new Refused(`${path} has data after its end line (the file is damaged)`);
    }
    if (line.startsWith('[')) {
      const table = manifest.tables[tableIndex];
      if (!table) {
        throw new Refused(`${path} has rows outside any table (the file is damaged)`);
      }
      let values: PortableValue[];
      try {
        values = JSON.parse(line) as PortableValue[];
      } catch {
        throw new Refused(`${path}: a row of ${table.name} is not readable (the file is damaged)`);
      }
      if (!Array.isArray(values) || values.length !== table.columns.length) {
        throw new Refused(`${path}: a row of ${table.name} does not have the table's ${table.columns.length} columns (the file is damaged)`);
      }
      digest.add(line);
      yield { table, values };
      continue;
    }
    let marker: { table?: string; end?: boolean };
    try {
      marker = JSON.parse(line) as { table?: string; end?: boolean };
    } catch {
      throw new Refused(`${path} has an unreadable line (the file is damaged)`);
    }
    finishTable();
    if (marker.end === true) {
      if (tableIndex !== manifest.tables.length - 1) {
        throw new Refused(`${path} ends before table ${manifest.tables[tableIndex + 1]?.name} (the file is truncated)`);
      }
      ended = true;
      continue;
    }
    tableIndex += 1;
    digest = new TableDigest();
    if (marker.table !== manifest.tables[tableIndex]?.name) {
      throw new Refused(`${path} has table ${String(marker.table)} where the manifest expects ${String(manifest.tables[tableIndex]?.name)} (the file is damaged)`);
    }
  }
  if (!manifest) {
    throw new Refused(`${path} is empty`);
  }
  if (!ended) {
    throw new Refused(`${path} is truncated (no end line)`);
  }
  return manifest;
}

/**
 * `restore --check`: the whole file read and every table's rows counted and checksummed against
 * the manifest, without touching any database. Returns the manifest.
 */
export async function verifyBackupFile(path: string): Promise<BackupManifest> {
  const rows = readBackupRows(path);
  for (;;) {
    const next = await rows.next();
    if (next.done) {
      return next.value;
    }
  }
}
