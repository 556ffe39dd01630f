import type { INestApplicationContext } from '@nestjs/common';
import { Command, Option } from 'commander';
import { API_SCOPES, ApiScope } from '../../api-keys/api-key.entity';
import { ApiKeyNameTaken, ApiKeysService } from '../../api-keys/api-keys.service';
import { CliError, CliOutput } from '../cli-output';

type Run = (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>) => Promise<void>;

export function registerApiKeyCommands(program: Command, run: Run): void {
  program
    .command('apikey:create')
    .description('Create an API key; the key is shown once and stored only as a hash')
    .requiredOption('--name <name>', 'unique name of the key, e.g. the operator or server it is for')
    .addOption(new Option('--scope <scope...>', 'scope(s) of the key').choices([...API_SCOPES]).makeOptionMandatory())
    .action((options: { name: string; scope: ApiScope[] }) =>
      run(async (context, output) => {
        if (!/^[\w.@-]{1,64}$/.test(options.name)) {
          throw new CliError('--name must be 1-64 letters, digits or . _ @ -');
        }
        try {
          const created = await context.get(ApiKeysService).create(options.name, options.scope);
          output.result(created, `Created API key "${created.name}" (${created.scopes.join(', ')}):\n${created.key}\nStore it now: it cannot be shown again.`);
        } catch (error) {
          if (error instanceof ApiKeyNameTaken) {
            throw new CliError(error.message);
          }
          throw error;
        }
      }),
    );

  program
    .command('apikey:list')
    .description('List API keys (never the keys themselves)')
    .action(() =>
      run(async (context, output) => {
        const keys = (await context.get(ApiKeysService).list()).map((key) => ({
          name: key.name,
          scopes: key.scopes,
          createdAt: key.createdAt.toISOString(),
          lastUsedAt: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
        }));
        const lines = keys.map((key) => `${key.name}\t${key.scopes.join(',')}\tcreated ${key.createdAt}\tlast used ${key.lastUsedAt ?? 'never'}`);
        output.result({ keys }, lines.length > 0 ? lines.join('\n') : 'No API keys.');
      }),
    );

  program
    .command('apikey:revoke')
    .description('Revoke (delete) an API key by name')
    .requiredOption('--name <name>', 'name of the key')
    .action((options: { name: string }) =>
      run(async (context, output) => {
        if (!(await context.get(ApiKeysService).revoke(options.name))) {
          throw new CliError(`No API key named "${options.name}".`);
        }
        output.result({ name: options.name, revoked: true }, `Revoked API key "${options.name}".`);
      }),
    );
}
