import type { INestApplicationContext } from '@nestjs/common';
import { Command, Option } from 'commander';
import { CLUB_GROUPS, ClubGroup } from '../../club/club-account.entity';
import { ClubAccountsService } from '../../club/club-accounts.service';
import { CliError, CliOutput } from '../cli-output';

type Run = (work: (context: INestApplicationContext, output: CliOutput) => Promise<void>) => Promise<void>;

export function registerClubCommands(program: Command, run: Run): void {
  program
    .command('club:set-group')
    .description("Set the club group of a player's account")
    .requiredOption('--player <uuid|mcid>', 'game UUID or current game id of the player')
    .addOption(new Option('--group <group>', 'club group').choices([...CLUB_GROUPS]).makeOptionMandatory())
    .action((options: { player: string; group: ClubGroup }) =>
      run(async (context, output) => {
        if (!(await context.get(ClubAccountsService).setGroup(options.player, options.group))) {
          throw new CliError(`No club account for player "${options.player}".`);
        }
        output.result({ player: options.player, group: options.group }, `Set club group of ${options.player} to ${options.group}.`);
      }),
    );
}
