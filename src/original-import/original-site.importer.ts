import { Injectable } from '@nestjs/common';
import { ChatAccountsImport } from '../chat-accounts/chat-accounts.import';
import { MiniGamesImport } from '../mini-games/mini-games.import';
import { PlayTimeImport } from '../play-time/play-time.import';
import { PlayerGroupsImport } from '../player-groups/player-groups.import';
import { PunishmentsImport } from '../punishments/punishments.import';
import { VotesImport } from '../votes/votes.import';
import type { Transaction } from '../database/transaction';
import { CommunityBanlistBansRepository } from '../community-bans/community-banlist-bans.repository';
import { PlayersService } from '../players/players.service';
import { tableImport, type ImportResult, type TableImport } from './feature-table';
import type { Run } from './import-run';
import {
  awayTable,
  communityBansTable,
  dailyOnlineTable,
  type ImportedCommunityBan,
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
 * punishments, mini-game results), each handed to its feature's import, and the ban-list bans
 * issued on the community's own server, kept in a table of their own
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
    private readonly communityBans: CommunityBanlistBansRepository,
    private readonly players: PlayersService,
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
      tableImport(communityBansTable(source, (tx, rows) => this.importCommunityBans(tx, rows))),
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

  /**
   * The community's own ban-list records, by ban id: a row whose ban id is recorded here already
   * is unchanged when it came from this row, refused when from another. A row without a time takes
   * the mirror's time of its ban id, else the import's (a notice says which).
   */
  private async importCommunityBans(tx: Transaction, rows: readonly ImportedCommunityBan[]): Promise<ImportResult> {
    const result = { accepted: 0, skipped: 0, refused: [] as Array<{ sourceId: string; reason: string }>, notices: [] as Array<{ sourceId: string; reason: string }> };
    const banIds = rows.map((row) => row.banId);
    const holders = await this.communityBans.holders(tx, banIds);
    const mirror = await this.communityBans.mirrorTimes(tx, rows.filter((row) => row.bannedAt === null).map((row) => row.banId));
    const now = new Date();
    // A player with a record here is known to both sites (docs/players-site.md, "Naming a player"),
    // as the punishments' import makes its players: a bare row where none exists.
    await this.players.ensureKnown(tx, [...new Set(rows.map((row) => row.uuid.toLowerCase()))]);
    for (const row of rows) {
      const holder = holders.get(row.banId);
      if (holder) {
        if (holder.origin === 'original' && holder.sourceId === row.sourceId) {
          result.skipped += 1;
        } else {
          result.refused.push({ sourceId: row.sourceId, reason: `ban id ${row.banId} is recorded here already (${holder.origin} row ${holder.sourceId})` });
        }
        continue;
      }
      const mirrored = mirror.get(row.banId);
      const bannedAt = row.bannedAt ?? mirrored ?? now;
      const bannedAtFrom = row.bannedAt ? 'source' : mirrored ? 'mirror' : 'import';
      if (bannedAtFrom !== 'source') {
        result.notices.push({ sourceId: row.sourceId, reason: bannedAtFrom === 'mirror' ? "no time in the source: the mirror's time of this ban id is recorded" : 'no time in the source nor in the mirror: the time of the import is recorded' });
      }
      await this.communityBans.insert(tx, { origin: 'original', sourceId: row.sourceId, banId: row.banId, uuid: row.uuid, type: row.type, reason: row.reason, bannedBy: row.bannedBy, bannedAt, bannedAtFrom }, now);
      holders.set(row.banId, { origin: 'original', sourceId: row.sourceId });
      result.accepted += 1;
    }
    return result;
  }
}
