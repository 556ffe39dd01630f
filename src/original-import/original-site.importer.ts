import { Injectable } from '@nestjs/common';
import { ChatAccountsImport } from '../chat-accounts/chat-accounts.import';
import { MiniGamesImport } from '../mini-games/mini-games.import';
import { PlayTimeImport } from '../play-time/play-time.import';
import { PlayerGroupsImport } from '../player-groups/player-groups.import';
import { PunishmentsImport } from '../punishments/punishments.import';
import { VotesImport } from '../votes/votes.import';
import { tableImport, type TableImport } from './feature-table';
import type { Run } from './import-run';
import {
  awayTable,
  dailyOnlineTable,
  onlineTotalTable,
  periodMatchTable,
  permissionsTable,
  profileLinksTable,
  punishmentTable,
  secondAccountTable,
  voteTable,
} from './original-site-tables';

type Progress = (table: string, rows: number) => void;

/**
 * The players site's source tables (play time, votes, groups, chat accounts, profile links,
 * punishments, mini-game results), each handed to its feature's import
 * (docs/moving-from-original.md, "What each table becomes"). Every table is optional.
 */
@Injectable()
export class OriginalSiteImporter {
  constructor(
    private readonly playTime: PlayTimeImport,
    private readonly votes: VotesImport,
    private readonly groups: PlayerGroupsImport,
    private readonly chatAccounts: ChatAccountsImport,
    private readonly punishments: PunishmentsImport,
    private readonly miniGames: MiniGamesImport,
  ) {}

  /** The tables in import order, built for this run's source (its layout decides the columns read). */
  private tables(run: Run): TableImport[] {
    const { source } = run;
    return [
      tableImport(dailyOnlineTable(source, (tx, rows) => this.playTime.importSessionsIn(tx, rows))),
      tableImport(onlineTotalTable((tx, rows) => this.playTime.importEraTotalsIn(tx, rows))),
      tableImport(awayTable(source, (tx, rows) => this.playTime.importAwayIn(tx, rows))),
      tableImport(
        voteTable(
          source,
          'vote',
          (tx, rows) => this.votes.importVoteTotalsIn(tx, rows),
          (tx, rows) => this.votes.importLoginTextsIn(tx, rows),
        ),
      ),
      tableImport(voteTable(source, 'vote_monocraft', (tx, rows) => this.votes.importVoteTotalsIn(tx, rows))),
      tableImport(permissionsTable(source, (tx, rows) => this.groups.importGroupsIn(tx, rows))),
      tableImport(secondAccountTable(source, (tx, rows) => this.chatAccounts.importSecondAccountsIn(tx, rows))),
      tableImport(profileLinksTable((tx, rows) => this.chatAccounts.importProfileLinksIn(tx, rows))),
      ...(['jail', 'eban', 'chatban', 'chatjail'] as const).map((table) => tableImport(punishmentTable(source, table, (tx, rows) => this.punishments.importPunishmentsIn(tx, rows)))),
      tableImport(periodMatchTable((tx, rows) => this.miniGames.importPeriodmatchIn(tx, rows))),
    ];
  }

  /**
   * `start` registers a table the source has (its COUNT(*)) and says whether it has it; a missing
   * one is a warning, as for the other optional tables.
   */
  async importAll(run: Run, start: (table: string) => Promise<boolean>, onProgress: Progress): Promise<void> {
    for (const table of this.tables(run)) {
      if (await start(table.table)) {
        await table.import(run, (rows) => onProgress(table.table, rows));
      } else {
        run.report.problem(table.table, null, `warning: the source has no ${table.table} table; nothing of it was imported`);
      }
    }
  }
}
