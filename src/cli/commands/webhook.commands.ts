import type { INestApplicationContext } from '@nestjs/common';
import { Command, Option } from 'commander';
import { ApiError } from '../../common/errors/api-error';
import { EVENT_TYPES } from '../../events/event.types';
import { WebhooksService } from '../../events/webhooks.service';
import { CliError, CliOutput } from '../cli-output';

type Run = (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>) => Promise<void>;

/** Client mistakes (bad URL, unknown id) become CLI errors with the API's message. */
async function asCli<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.getStatus() < 500) {
      const detail = error.details?.[0]?.message;
      throw new CliError(detail ?? error.message);
    }
    throw error;
  }
}

function eventList(values: string[]): string[] {
  const list = [...new Set(values.flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean))];
  if (list.length === 0 || !list.every((value) => value === '*' || (EVENT_TYPES as readonly string[]).includes(value))) {
    throw new CliError(`--events must list event types (${EVENT_TYPES.join(', ')}) or "*"`);
  }
  return list.includes('*') ? ['*'] : list;
}

export function registerWebhookCommands(program: Command, run: Run): void {
  program
    .command('webhook:add')
    .description('Register a webhook; the signing secret is shown once')
    .requiredOption('--url <url>', 'http(s) URL that receives the events')
    .option('--events <types...>', 'event types (space or comma separated), or "*" for all', ['*'])
    .addOption(new Option('--format <format>', 'json: the signed event; discord: a Japanese Discord message').choices(['json', 'discord']).default('json'))
    .action((options: { url: string; events: string[]; format: 'json' | 'discord' }) =>
      run(async (context, output) => {
        const events = eventList(options.events);
        const created = await asCli(() => context.get(WebhooksService).create({ url: options.url, events, format: options.format }));
        output.result(
          created,
          `Created webhook ${created.data.id} (${created.data.format}, ${created.data.events.join(', ')}) for ${created.data.url}.\nSigning secret:\n${created.secret}\nStore it now: it cannot be shown again.`,
        );
      }),
    );

  program
    .command('webhook:list')
    .description('List webhooks (URLs masked, never the secrets)')
    .action(() =>
      run(async (context, output) => {
        const webhooks = await context.get(WebhooksService).list();
        const lines = webhooks.map(
          (hook) => `${hook.id}\t${hook.url}\t${hook.format}\t${hook.events.join(',')}\t${hook.active ? 'active' : 'paused'}${hook.failing ? '\tFAILING' : ''}\tlast delivery ${hook.lastDeliveryAt ?? 'never'}`,
        );
        output.result({ webhooks }, lines.length > 0 ? lines.join('\n') : 'No webhooks.');
      }),
    );

  program
    .command('webhook:remove')
    .description('Remove a webhook by id, with its delivery log')
    .requiredOption('--id <id>', 'webhook id (see webhook:list)')
    .action((options: { id: string }) =>
      run(async (context, output) => {
        if (!/^[1-9]\d{0,9}$/.test(options.id)) {
          throw new CliError('--id must be a positive integer');
        }
        await asCli(() => context.get(WebhooksService).remove(Number(options.id)));
        output.result({ id: Number(options.id), removed: true }, `Removed webhook ${options.id}.`);
      }),
    );
}
