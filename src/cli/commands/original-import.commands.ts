import type { INestApplicationContext } from '@nestjs/common';
import { MultiBar, Presets, SingleBar } from 'cli-progress';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { prepareForBulkImport } from '../../database/bulk-import';
import { OriginalImportService } from '../../original-import/original-import.service';
import { scrub, secretSpellings, SourceError } from '../../original-import/source-url';
import { CliError, CliOutput } from '../cli-output';
import { SqliteImportPacer } from '../sqlite-import-pacer';
import { keepHeapSmall } from '../heap-keeper';

type Run = (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>) => Promise<void>;

/**
 * Page cache of the importing SQLite connection, in KiB: enough to keep the login index's hot
 * pages, small enough for the import's memory bound (docs/moving-from-original.md).
 */
const ORIGINAL_IMPORT_CACHE_KIB = 48 * 1024;
/** Login rows per transaction at most (the SQLite pacer adapts it down). */
const MAX_BATCH = 5000;
/** Plain progress lines (no terminal): one per this many rows of a table. */
const PLAIN_STEP = 100_000;

/** A full collection each time the import's heap has grown by 32 MiB (docs/benchmarks.md, "Importing the original database"). */
const HEAP_KEEPING = { growthMiB: 32, everyMs: 500 };

interface ImportCommandOptions {
  from: string;
  passwordFile?: string;
  report?: string;
  dryRun?: boolean;
  sourceTimeZone: string;
}

/** The source password from `--password-file` (first line) or `ORIGINAL_DB_PASSWORD`; undefined: the URL's. */
function sourcePassword(options: ImportCommandOptions): string | undefined {
  if (options.passwordFile !== undefined) {
    let content: string;
    try {
      content = readFileSync(options.passwordFile, 'utf8');
    } catch (error) {
      throw new CliError(`--password-file ${options.passwordFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, 2);
    }
    return content.split(/\r?\n/)[0];
  }
  return process.env.ORIGINAL_DB_PASSWORD;
}

export function registerOriginalImportCommand(program: Command, run: Run): void {
  program
    .command('import:original')
    .description("Import the original service's MySQL database (read-only there): cities, requests, logins, chat links, achievements, club accounts, and the players site's play time, votes, groups, chat accounts, profile links, punishments and mini-game results")
    .requiredOption('--from <url>', 'the original database: mysql://USER@HOST:PORT/DATABASE (the password in ORIGINAL_DB_PASSWORD or --password-file)')
    .option('--password-file <file>', "a file whose first line is the source database's password")
    .option('--report <file>', 'write every problem to this file, one JSON object a line')
    .option('--dry-run', 'read everything and report what a real run would do; write nothing')
    .option('--source-time-zone <zone>', "the offset the original's dates were written in", '+09:00')
    .action(async (options: ImportCommandOptions) => {
      // The URL may carry the password: `ps` shows the process title, not the arguments, from here on.
      process.title = 'node cli import:original';
      const password = sourcePassword(options);
      const secrets = secretSpellings(options.from, password);
      try {
        await importOriginal(run, options, password);
      } catch (error) {
        // No message ever carries the password, however it was spelled.
        if (error instanceof CliError) {
          throw new CliError(scrub(error.message, secrets), error.exitCode);
        }
        throw new CliError(`The import failed part-way: ${scrub(error instanceof Error ? error.message : String(error), secrets)} Run the same command again to complete it.`, 1);
      }
    });
}

function importOriginal(run: Run, options: ImportCommandOptions, password: string | undefined): Promise<void> {
  return run(async (context, output) => {
    const dataSource = context.get(DataSource);
    const sqlite = dataSource.options.type === 'better-sqlite3';
    let reportFile: number | undefined;
    if (options.report !== undefined) {
      try {
        reportFile = openSync(options.report, 'w', 0o600);
      } catch (error) {
        throw new CliError(`--report ${options.report} cannot be written (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, 2);
      }
    }
    if (sqlite) {
      await prepareForBulkImport(dataSource, ORIGINAL_IMPORT_CACHE_KIB);
    }
    const progress = process.stderr.isTTY ? new BarProgress() : new LineProgress(output);
    let started = false;
    const heap = keepHeapSmall(HEAP_KEEPING);
    try {
      const report = await context.get(OriginalImportService).run({
        from: options.from,
        password,
        zone: options.sourceTimeZone,
        dryRun: Boolean(options.dryRun),
        onProblem: reportFile === undefined ? undefined : (problem) => writeSync(reportFile, `${JSON.stringify(problem)}\n`),
        // SQLite: short transactions with pauses, so a running server is never kept waiting long.
        pacer: sqlite ? new SqliteImportPacer(MAX_BATCH) : undefined,
        onTable: (table, total) => {
          started = true;
          progress.table(table, total);
        },
        onProgress: (table, rows) => progress.update(table, rows),
      });
      progress.stop();
      output.result(report.toJSON() as unknown as Record<string, unknown>, report.toText());
    } catch (error) {
      progress.stop();
      if (error instanceof SourceError) {
        // Refused before anything was written (2); a run cut off part-way (1) keeps what it finished, and the next run completes it.
        throw started
          ? new CliError(`${error.message} The import stopped part-way: run the same command again to complete it.`, 1)
          : new CliError(error.message, 2);
      }
      throw error;
    } finally {
      heap.stop();
      if (reportFile !== undefined) {
        closeSync(reportFile);
      }
    }
  });
}

interface Progress {
  table(table: string, total: number): void;
  update(table: string, rows: number): void;
  stop(): void;
}

/** One bar per table on a terminal (stderr, so stdout keeps the report alone). */
class BarProgress implements Progress {
  private readonly bars = new MultiBar({ stream: process.stderr, clearOnComplete: false, hideCursor: true, format: ' {table} [{bar}] {value}/{total} rows' }, Presets.shades_classic);
  private readonly byTable = new Map<string, SingleBar>();

  table(table: string, total: number): void {
    this.byTable.set(table, this.bars.create(total, 0, { table: table.padEnd(26) }));
  }

  update(table: string, rows: number): void {
    this.byTable.get(table)?.update(rows);
  }

  stop(): void {
    this.bars.stop();
  }
}

/** Plain lines on stderr otherwise (logs, pipes). */
class LineProgress implements Progress {
  private readonly totals = new Map<string, number>();
  private readonly shown = new Map<string, number>();

  constructor(private readonly output: CliOutput) {}

  table(table: string, total: number): void {
    this.totals.set(table, total);
    this.shown.set(table, 0);
    this.output.note(`${table}: ${total} rows to read`);
  }

  update(table: string, rows: number): void {
    const total = this.totals.get(table) ?? 0;
    if (rows >= total || rows - (this.shown.get(table) ?? 0) >= PLAIN_STEP) {
      this.shown.set(table, rows);
      this.output.note(`${table}: ${rows}/${total} rows read`);
    }
  }

  stop(): void {}
}
