import type { INestApplicationContext } from '@nestjs/common';
import { Command } from 'commander';
import { BanlistSyncService } from '../../banlist-sync/banlist-sync.service';
import { DEMO_BANNED_UUID, FakeBanlist } from '../../banlist-sync/fake-upstream';
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

  program
    .command('banlist:fake-upstream')
    .description('Start a stand-in for the external ban-list service on this machine (one global ban of Notch, no record of anyone else) until Ctrl-C, to try the ban-list mirror with BANLIST_SOURCE_URL')
    .option('--port <n>', 'the port to listen on (0: any free port)', '8090')
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .action((options: { port: string; host: string }) => fakeUpstream(options, new CliOutput(Boolean(program.opts<{ json?: boolean }>().json))));
}

/**
 * Runs the fake until SIGINT or SIGTERM (docs/game-server.md, Trying it without the upstream).
 * It touches no database and reads no configuration. Every request is noted on stderr, so the
 * operator sees the sync's calls arrive.
 */
async function fakeUpstream(options: { port: string; host: string }, output: CliOutput): Promise<void> {
  if (!/^\d+$/.test(options.port) || Number(options.port) > 65535) {
    throw new CliError(`--port ${options.port} is not a port: give a whole number from 0 to 65535`);
  }
  const fake = new FakeBanlist().scriptDemo();
  let url: string;
  try {
    url = await fake.start(Number(options.port), options.host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(code === 'EADDRINUSE' ? `Port ${options.port} is in use: pass another with --port (or --port 0 for any free one)` : `Cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
  }
  output.result(
    { url, bannedUuid: DEMO_BANNED_UUID },
    `Fake ban-list upstream at ${url}: one global ban of Notch (${DEMO_BANNED_UUID}), no record of anyone else.\nStart the server with BANLIST_SOURCE_URL=${url} (in .env or the environment). Ctrl-C stops the fake.`,
  );
  // Printed and forgotten: the fake runs until stopped, and a sync of every player asks for each.
  const timer = setInterval(() => {
    for (const request of fake.requests.splice(0)) {
      output.note(`GET /player/${request.uuid}`);
    }
  }, 200);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(timer);
  await fake.stop();
}
