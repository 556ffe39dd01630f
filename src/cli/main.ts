import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { loadEnvFile } from '../config/env-file';
import { runMigrationsLocked } from '../database/migration-runner';
import { CliError, CliOutput } from './cli-output';
import { CliModule } from './cli.module';
import { registerApiKeyCommands } from './commands/api-key.commands';
import { registerBackupCommands } from './commands/backup.commands';
import { registerBanlistCommands } from './commands/banlist.commands';
import { registerClubCommands } from './commands/club.commands';
import { registerImportCommands } from './commands/import.commands';
import { registerOriginalImportCommand } from './commands/original-import.commands';
import { registerWebhookCommands } from './commands/webhook.commands';

/**
 * `npm run --silent cli -- <command> [--json]`: same configuration and database as the server,
 * safe to run while it runs.
 */
/** The configuration (.env file, then the environment); a bad one is refused (exit 2). */
function configOrRefusal(): AppConfig {
  try {
    loadEnvFile();
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new CliError(error.message);
    }
    throw error;
  }
}

/**
 * Exit codes, every command alike (docs/operations.md, The command line): 0 done; 2 refused (a
 * usage error, commander's included, or an input that cannot be used: nothing changed); 1
 * failed part-way (the message says what state is left).
 */
async function main(argv: string[]): Promise<number> {
  const program = new Command('cli').option('--json', 'print exactly one JSON object on stdout').exitOverride();
  let exitCode = 0;

  const run = async (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>): Promise<void> => {
    const output = new CliOutput(Boolean(program.opts<{ json?: boolean }>().json));
    const config = configOrRefusal();
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

  registerBackupCommands(program, () => configOrRefusal().DATABASE_URL);

  try {
    await program.parseAsync(argv);
  } catch (error) {
    const json = argv.includes('--json');
    const commander = error instanceof Error && 'code' in error && String(error.code).startsWith('commander.');
    if (commander && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help')) {
      return 0;
    }
    const message = error instanceof CliError || commander ? (error as Error).message : `Command failed: ${error instanceof Error ? error.message : String(error)}`;
    // An empty message: the command has printed its own report.
    if (message !== '') {
      if (json) {
        process.stdout.write(`${JSON.stringify({ error: message })}\n`);
      } else if (!commander) {
        // commander has written its own message to stderr already.
        process.stderr.write(`${message}\n`);
      }
    }
    exitCode = error instanceof CliError ? error.exitCode : commander ? 2 : 1;
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
