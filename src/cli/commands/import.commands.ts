import { createReadStream, statSync } from 'node:fs';
import type { INestApplicationContext } from '@nestjs/common';
import { Command, Option } from 'commander';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { prepareForBulkImport } from '../../database/bulk-import';
import { detectFormat, ImportFormat, ImportFormatError, readLoginRows } from '../../users/login-import';
import { ImportProgress, LoginImportService } from '../../users/login-import.service';
import { CliError, CliOutput } from '../cli-output';
import { SqliteImportPacer } from '../sqlite-import-pacer';

type Run = (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>) => Promise<void>;

export function registerImportCommands(program: Command, run: Run): void {
  program
    .command('import:logins')
    .description('Import historical login records from a CSV (uuid,mcid,loggedInAt,permission) or JSON Lines file; DATA_CUTOFF applies')
    .requiredOption('--file <path>', 'the export to read (.csv, .jsonl or .ndjson)')
    .addOption(new Option('--format <format>', 'file format, when the extension does not tell').choices(['csv', 'jsonl']))
    .option('--batch-size <n>', 'records per transaction (1-10000; on SQLite the most per transaction, adapted down to keep each short)', '5000')
    .action((options: { file: string; format?: ImportFormat; batchSize: string }) =>
      run(async (context, output) => {
        const format = options.format ?? detectFormat(options.file);
        if (!format) {
          throw new CliError('Cannot tell the format from the file name; pass --format csv or --format jsonl.');
        }
        const batchSize = Number(options.batchSize);
        if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10000) {
          throw new CliError('--batch-size must be an integer from 1 to 10000.');
        }
        let size: number;
        try {
          size = statSync(options.file).size;
        } catch {
          throw new CliError(`Cannot read ${options.file}.`);
        }
        const dataSource = context.get(DataSource);
        const sqlite = dataSource.options.type === 'better-sqlite3';
        await prepareForBulkImport(dataSource);
        const stream = createReadStream(options.file);
        const progress = new ProgressLine(size, stream);
        const started = Date.now();
        let rowsRead = 0;
        try {
          const summary = await context.get(LoginImportService).import(readLoginRows(stream, format), {
            batchSize,
            // SQLite: short transactions with pauses, so a running server is never kept waiting long.
            pacer: sqlite ? new SqliteImportPacer(batchSize) : undefined,
            onBatch: (state) => {
              rowsRead = state.rows;
              progress.update(state);
            },
          });
          progress.done();
          const seconds = (Date.now() - started) / 1000;
          const result = { file: options.file, format, cutoff: context.get(AppConfig).dataCutoff.toISOString(), ...summary, seconds };
          output.result(
            result,
            [
              `Imported ${options.file} (${format}) in ${seconds.toFixed(1)} s: ${summary.rows} rows, ${summary.accepted} accepted, ` +
                `${summary.skipped} skipped (${summary.beforeCutoff} before ${result.cutoff}), ${summary.invalidCount} invalid.`,
              ...summary.invalid.map((entry) => `  line ${entry.line}: ${entry.reason}`),
              ...(summary.invalidTruncated ? [`  ... and ${summary.invalidCount - summary.invalid.length} more invalid lines`] : []),
            ].join('\n'),
          );
        } catch (error) {
          progress.done();
          if (error instanceof ImportFormatError || (error instanceof Error && 'code' in error && String(error.code).startsWith('CSV_'))) {
            // Refused when nothing was written yet (exit 2); otherwise the batches before the bad line are in (exit 1).
            throw rowsRead === 0
              ? new CliError(`Cannot read ${options.file}: ${error.message}`)
              : new CliError(
                  `Cannot read ${options.file}: ${error.message}. The ${rowsRead} rows before it were imported; fix the file and run the import again (rows already in are skipped as repeats).`,
                  1,
                );
          }
          throw error;
        }
      }),
    );
}

/** A progress line on stderr, redrawn in place; only when stderr is a terminal (stdout stays one JSON object). */
class ProgressLine {
  private readonly enabled = Boolean(process.stderr.isTTY);
  private bytes = 0;
  private lastDrawn = 0;
  private readonly started = Date.now();

  constructor(
    private readonly size: number,
    stream: NodeJS.ReadableStream,
  ) {
    stream.on('data', (chunk: Buffer | string) => {
      this.bytes += chunk.length;
    });
  }

  update(state: ImportProgress): void {
    const now = Date.now();
    if (!this.enabled || now - this.lastDrawn < 200) {
      return;
    }
    this.lastDrawn = now;
    const percent = this.size > 0 ? Math.min(100, (this.bytes / this.size) * 100) : 100;
    const rate = Math.round(state.rows / Math.max((now - this.started) / 1000, 0.001));
    process.stderr.write(
      `\r${percent.toFixed(1).padStart(5)}%  ${state.rows} rows  ${state.accepted} accepted  ${state.skipped} skipped  ${state.invalidCount} invalid  ${rate} rows/s `,
    );
  }

  done(): void {
    if (this.enabled && this.lastDrawn > 0) {
      process.stderr.write('\n');
      this.lastDrawn = 0;
    }
  }
}
