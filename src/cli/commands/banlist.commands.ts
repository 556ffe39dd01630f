import type { INestApplicationContext } from '@nestjs/common';
import { Command } from 'commander';
import { BanlistSyncService } from '../../banlist-sync/banlist-sync.service';
import { ApiError } from '../../common/errors/api-error';
import { CliError, CliOutput } from '../cli-output';

type Run = (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>) => Promise<void>;

export function registerBanlistCommands(program: Command, run: Run): void {
  program
    .command('banlist:sync')
    .description('Run one ban-list sync now (refuses while another run holds the lease) and print its summary')
    .action(() =>
      run(async (context, output) => {
        try {
          const summary = await context.get(BanlistSyncService).run('cli');
          output.result(
            { ...summary },
            `Ban-list sync: ${summary.players} players, ${summary.updated} updated, ${summary.failed} failed, ${summary.removedBans} bans removed (${summary.startedAt} to ${summary.finishedAt}).`,
          );
        } catch (error) {
          // The service speaks HTTP errors (409 busy, 503 not configured); here they are plain messages.
          if (error instanceof ApiError) {
            throw new CliError(error.message);
          }
          throw error;
        }
      }),
    );
}
