import { setPriority } from 'node:os';
import { Command } from 'commander';
import { takeBackup } from '../../backup/backup';
import { FailedPartWay, messageOf, Refused } from '../../backup/refusals';
import { checkBackup, restore, undoRestore } from '../../backup/restore';
import { missingDatabaseMessage } from '../../database/missing-database';
import { CliError, CliOutput } from '../cli-output';

/** Refusals exit 2, part-way failures 1 (docs/backup-and-restore.md, Exit codes). */
function asCliError(verb: string, error: unknown, databaseUrl?: string): CliError {
  if (error instanceof CliError) {
    return error;
  }
  const missing = databaseUrl === undefined ? undefined : missingDatabaseMessage(error, databaseUrl);
  if (missing !== undefined) {
    return new CliError(`${verb} refused: ${missing}`, 2);
  }
  if (error instanceof Refused) {
    return new CliError(`${verb} refused: ${error.message}`, 2);
  }
  if (error instanceof FailedPartWay) {
    return new CliError(`${verb} failed: ${error.message}`, 1);
  }
  return new CliError(`${verb} failed: ${messageOf(error)}`, 1);
}

/**
 * `backup` and `restore`. Neither builds the application context: a backup reads through its own
 * snapshot connection, and a restore must not open the database it is about to replace.
 */
export function registerBackupCommands(program: Command, loadDatabaseUrl: () => string): void {
  const output = (): CliOutput => new CliOutput(Boolean(program.opts<{ json?: boolean }>().json));

  program
    .command('backup')
    .description('Write a portable backup of the database (SQLite or MariaDB) while the server runs: one consistent snapshot, verified before it is reported')
    .requiredOption('--out <file>', 'the new backup file (must not exist; written with mode 0600)')
    .action(async (options: { out: string }) => {
      const databaseUrl = loadDatabaseUrl();
      yieldCpuToTheServer();
      try {
        const written = await takeBackup(databaseUrl, options.out);
        const rows = written.manifest.tables.reduce((sum, table) => sum + table.rows, 0);
        if (written.leftOut.length > 0) {
          output().note(`Left out (not part of this service's schema): ${written.leftOut.join(', ')}`);
        }
        output().result(
          { backup: written.path, bytes: written.bytes, tables: written.manifest.tables.length, rows, lastMigration: written.manifest.lastMigration, source: written.manifest.source },
          `Backup written and verified: ${written.path} (${written.bytes} bytes, ${written.manifest.tables.length} tables, ${rows} rows).`,
        );
      } catch (error) {
        throw asCliError('Backup', error, databaseUrl);
      }
    });

  program
    .command('restore')
    .description('Load a backup into the configured database, whichever database made it (the server must be stopped); --check verifies a file; --undo puts back what the last restore replaced')
    .option('--from <file>', 'the backup to restore (a file from `backup`, an old SQLite copy, or a mariadb-dump file)')
    .option('--check <file>', 'verify the file without changing any database, and list rows the configured database could not hold')
    .option('--undo', 'put back the data the last restore replaced')
    .action(async (options: { from?: string; check?: string; undo?: boolean }) => {
      const chosen = [options.from !== undefined, options.check !== undefined, options.undo === true].filter(Boolean).length;
      if (chosen !== 1) {
        throw new CliError('restore needs exactly one of --from FILE, --check FILE or --undo', 2);
      }
      if (options.check !== undefined) {
        let databaseUrl: string | undefined;
        try {
          databaseUrl = loadDatabaseUrl();
        } catch {
          databaseUrl = undefined;
        }
        try {
          const checked = await checkBackup(databaseUrl, options.check);
          const rows = checked.manifest.tables.reduce((sum, table) => sum + table.rows, 0);
          const summary = {
            file: options.check,
            valid: true,
            source: checked.manifest.source,
            serviceVersion: checked.manifest.serviceVersion,
            lastMigration: checked.manifest.lastMigration,
            createdAt: checked.manifest.createdAt,
            tables: checked.manifest.tables.length,
            rows,
            problems: checked.problems,
            ...(checked.targetNote ? { note: checked.targetNote } : {}),
          };
          if (checked.problems.length > 0) {
            const lines = checked.problems.map((problem) => `  ${problem.row} column ${problem.column}: ${problem.reason}`);
            if (output().json) {
              process.stdout.write(`${JSON.stringify({ ...summary, error: `${checked.problems.length} rows the configured database cannot hold` })}\n`);
            } else {
              process.stderr.write(`Check: ${options.check} is sound, but ${checked.problems.length} rows cannot be held by the configured database (fix them in the source and take a new backup):\n${lines.join('\n')}\n`);
            }
            throw new CliError('', 2);
          }
          output().result(
            summary,
            `Check passed: ${options.check} is a complete ${checked.manifest.source} backup of ${checked.manifest.createdAt} (${summary.tables} tables, ${rows} rows, migration ${checked.manifest.lastMigration ?? 'none'}).${checked.targetNote ? ` Note: ${checked.targetNote}.` : ''}`,
          );
        } catch (error) {
          throw asCliError('Check', error, databaseUrl);
        }
        return;
      }
      const databaseUrl = loadDatabaseUrl();
      try {
        const restored = options.undo ? await undoRestore(databaseUrl) : await restore(databaseUrl, options.from!);
        const what = options.undo ? 'Put back the data the last restore replaced' : `Restored ${restored.database} from ${options.from}`;
        output().result(
          { restored: restored.database, lastEventId: restored.lastEventId, previous: restored.previous },
          `${what}; the next event id follows ${restored.lastEventId}.${restored.previous ? ` The replaced data is kept as ${restored.previous} (delete it when no longer needed; restore --undo puts it back).` : ''}`,
        );
      } catch (error) {
        throw asCliError(options.undo ? 'Undo' : 'Restore', error, databaseUrl);
      }
    });
}

/**
 * A backup runs beside the server, on the same few cores: at a lower scheduling priority it takes
 * the CPU the server's requests leave (docs/backup-and-restore.md, Speed). Set before any worker
 * thread exists, so compression threads inherit it. Not every system allows it: then as is.
 */
function yieldCpuToTheServer(): void {
  try {
    setPriority(10);
  } catch {
    // unchanged priority
  }
}
