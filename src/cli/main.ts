import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { loadEnvFile } from '../config/env-file';
import { databaseKind } from '../database/data-source-options';
import { runMigrationsLocked } from '../database/migration-runner';
import { backupSqlite, mysqlDumpCommand } from './backup';
import { restoreMysql, restoreSqlite } from './restore';
import { CliError, CliOutput } from './cli-output';
import { CliModule } from './cli.module';
import { registerApiKeyCommands } from './commands/api-key.commands';
import { registerBanlistCommands } from './commands/banlist.commands';
import { registerClubCommands } from './commands/club.commands';
import { registerImportCommands } from './commands/import.commands';
import { registerOriginalImportCommand } from './commands/original-import.commands';
import { registerWebhookCommands } from './commands/webhook.commands';

/**
 * `npm run --silent cli -- <command> [--json]`: same configuration and database as the server,
 * safe to run while it runs.
 */
async function main(argv: string[]): Promise<number> {
  const program = new Command('cli').option('--json', 'print exactly one JSON object on stdout').exitOverride();
  let exitCode = 0;

  const run = async (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>): Promise<void> => {
    const output = new CliOutput(Boolean(program.opts<{ json?: boolean }>().json));
    let config: AppConfig;
    try {
      loadEnvFile();
      config = loadConfig();
    } catch (error) {
      if (error instanceof ConfigError) {
        throw new CliError(error.message);
      }
      throw error;
    }
    const context = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: ['error'] });
    try {
      await work(context, output);
    } finally {
      await context.close();
    }
  };

  registerApiKeyCommands(program, run);
  registerBanlistCommands(program, run);
  registerClubCommands(program, run);
  registerImportCommands(program, run);
  registerOriginalImportCommand(program, run);
  registerWebhookCommands(program, run);
  program
    .command('migration:run')
    .description('Apply pending database migrations (the server also does this at start)')
    .action(() =>
      run(async (context, output) => {
        const applied = await runMigrationsLocked(context.get(DataSource));
        output.result({ applied: applied.map((migration) => migration.name) }, applied.length > 0 ? `Applied: ${applied.map((m) => m.name).join(', ')}` : 'No pending migrations.');
      }),
    );

  program
    .command('backup')
    .description('SQLite: write a consistent copy of the database while the server runs (VACUUM INTO). MySQL: print the mariadb-dump command')
    .requiredOption('--out <file>', 'the new backup file (must not exist)')
    .action((options: { out: string }) => {
      const config = loadConfig();
      if (databaseKind(config.DATABASE_URL) === 'mysql') {
        // Refused before connecting: a dump tool does this better, from a consistent snapshot.
        throw new CliError(
          `backup copies SQLite databases only. For MySQL/MariaDB run (it asks for the password):\n  ${mysqlDumpCommand(config.DATABASE_URL, options.out)}`,
        );
      }
      if (config.DATABASE_URL === 'sqlite::memory:') {
        throw new CliError('backup needs a database file; sqlite::memory: has none');
      }
      return run(async (context, output) => {
        try {
          const copy = await backupSqlite(context.get(DataSource), options.out);
          output.result({ backup: copy.path, bytes: copy.bytes }, `Backup written: ${copy.path} (${copy.bytes} bytes).`);
        } catch (error) {
          throw new CliError(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      });
    });

  program
    .command('restore')
    .description('Put a backup back (the server must be stopped); event ids continue past every id handed out before. SQLite: a file from backup. MySQL: a dump from mariadb-dump')
    .requiredOption('--from <file>', 'the backup file (SQLite) or dump (MySQL/MariaDB)')
    .action(async (options: { from: string }) => {
      const config = loadConfig();
      const output = new CliOutput(Boolean(program.opts<{ json?: boolean }>().json));
      // No application context: it would open the database the restore is about to replace.
      try {
        if (databaseKind(config.DATABASE_URL) === 'mysql') {
          const restored = await restoreMysql(config.DATABASE_URL, options.from);
          output.result({ restored: restored.database, lastEventId: restored.lastEventId }, `Restored ${restored.database} from ${options.from}; the next event id follows ${restored.lastEventId}.`);
          return;
        }
        if (config.DATABASE_URL === 'sqlite::memory:') {
          throw new CliError('restore needs a database file; sqlite::memory: has none');
        }
        const restored = restoreSqlite(config.DATABASE_URL.slice('sqlite:'.length), options.from);
        output.result(
          { restored: restored.database, lastEventId: restored.lastEventId, previous: restored.previous },
          `Restored ${restored.database} from ${options.from}; the next event id follows ${restored.lastEventId}.${restored.previous ? ` The replaced database is kept as ${restored.previous}.` : ''}`,
        );
      } catch (error) {
        throw error instanceof CliError ? error : new CliError(`Restore refused: ${error instanceof Error ? error.message : String(error)}`);
      }
    });

  try {
    await program.parseAsync(argv);
  } catch (error) {
    const json = argv.includes('--json');
    const message = error instanceof CliError ? error.message : error instanceof Error && 'code' in error && String(error.code).startsWith('commander.') ? error.message : `Command failed: ${error instanceof Error ? error.message : String(error)}`;
    if (error instanceof Error && 'code' in error && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) {
      return 0;
    }
    if (json) {
      process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    } else {
      process.stderr.write(`${message}\n`);
    }
    exitCode = error instanceof CliError ? error.exitCode : 1;
  }
  return exitCode;
}

main(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
