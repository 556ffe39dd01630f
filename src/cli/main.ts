import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command } from 'commander';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { loadEnvFile } from '../config/env-file';
import { runMigrationsLocked } from '../database/migration-runner';
import { missingDatabaseMessage } from '../database/missing-database';
import { serializeError } from '../common/logging/error-serializer';
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
 * The application context, or a CliError that says why not: Nest would otherwise log the
 * driver's error with its stack and exit by itself. A missing MariaDB database is an unusable
 * configuration (2, named); anything else (an unreachable server) a failure (1).
 */
async function openContext(config: AppConfig): Promise<INestApplicationContext> {
  let context: INestApplicationContext;
  try {
    context = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false, abortOnError: false });
  } catch (error) {
    const missing = missingDatabaseMessage(error, config.DATABASE_URL);
    throw missing !== undefined ? new CliError(missing, 2) : new CliError(`Cannot open the database: ${serializeError(error).message}`, 1);
  }
  context.useLogger(['error']);
  return context;
}

/**
 * Exit codes, every command alike (docs/operations.md, The command line): 0 done; 2 refused (a
 * usage error, commander's included, or an input that cannot be used: nothing changed); 1
 * failed part-way (the message says what state is left).
 */
async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  // commander writes its usage errors to stderr; with --json the one JSON object on stdout says it
  // instead, so that each error is printed once.
  const program = new Command('cli')
    .option('--json', 'print exactly one JSON object on stdout')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => (json ? undefined : write(text)) });
  let exitCode = 0;

  const run = async (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>): Promise<void> => {
    const output = new CliOutput(Boolean(program.opts<{ json?: boolean }>().json));
    const config = configOrRefusal();
    const context = await openContext(config);
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
    refuseHelpForAnUnknownCommand(program, argv.slice(2));
    await program.parseAsync(argv);
  } catch (error) {
    const commander = error instanceof Error && 'code' in error && String(error.code).startsWith('commander.');
    if (commander && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help')) {
      // Asked for (`help`, `--help`): 0. Shown because no command was given: a usage error, 2.
      if ('exitCode' in error && error.exitCode === 0) {
        return 0;
      }
      if (json) {
        process.stdout.write(`${JSON.stringify({ error: 'no command given (`cli help` lists them)' })}\n`);
      }
      return 2;
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

/**
 * `help NAME` for a name that is no command: commander would show the general help and exit as
 * if asked; an operator who mistyped the name gets commander's own "unknown command" instead.
 * `help help` is the general help.
 */
function refuseHelpForAnUnknownCommand(program: Command, args: string[]): void {
  const words = args.filter((arg) => !arg.startsWith('-'));
  if (words[0] !== 'help' || words[1] === undefined) {
    return;
  }
  if (words[1] === 'help') {
    program.help();
  }
  if (!program.commands.some((command) => command.name() === words[1] || command.aliases().includes(words[1]))) {
    program.error(`error: unknown command '${words[1]}'`, { code: 'commander.unknownCommand', exitCode: 2 });
  }
}

main(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
