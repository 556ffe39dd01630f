import { Injectable } from '@nestjs/common';
import { ApiError, detail } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import type { LoginTextChange } from './login-texts.repository';
import { LoginTextsRepository } from './login-texts.repository';
import { textsAfterReports } from './login-text-changes';
import { ConcurrentRepeat, firstOfEachId, type Origin, retryingConcurrentRepeats } from './sender-ids';
import { countLevelDeltas, type ImportedTotal, tallyVotes, totalsAfterImport, totalsAfterVotes, type VoteInput } from './vote-batch';
import { VotesRepository } from './votes.repository';

export interface IngestCounts {
  accepted: number;
  /** Sender ids stored already, or repeated in the batch. */
  skipped: number;
}

/** Stores votes and login texts (game-server batches and the import) and keeps totals and count levels in step. */
@Injectable()
export class VotesService {
  constructor(
    private readonly votes: VotesRepository,
    private readonly loginTexts: LoginTextsRepository,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
  ) {}

  /** One transaction: all of the batch is stored, or none of it. Re-sending stores nothing new. */
  async ingestVotes(items: readonly VoteInput[]): Promise<IngestCounts> {
    const sites = this.config.voteSites;
    const votes = items.map((item) => ({ ...item, uuid: item.uuid.toLowerCase(), site: item.site.trim().toLowerCase() }));
    const unknown = votes.findIndex((vote) => !sites.includes(vote.site));
    if (unknown >= 0) {
      const field = `votes.${unknown}.site`;
      throw ApiError.badRequest(msg('validation.invalidParameter', { fields: ['votes'] }), [detail(field, msg('validation.isIn', { field, values: sites }))]);
    }
    return retryingConcurrentRepeats(() => this.unitOfWork.transaction((tx) => this.storeVotes(tx, 'game-server', votes)));
  }

  /** Login texts reported by the game server: the latest report per player wins. */
  async ingestLoginTexts(items: readonly LoginTextChange[]): Promise<IngestCounts> {
    const changes = items.map((item) => ({ ...item, uuid: item.uuid.toLowerCase() }));
    return retryingConcurrentRepeats(() => this.unitOfWork.transaction((tx) => this.storeLoginTexts(tx, 'game-server', changes)));
  }

  /** Imported totals (already mapped to site names) inside the caller's transaction; see VotesImport. */
  async importTotalsIn(tx: Transaction, rows: readonly ImportedTotal[]): Promise<number> {
    if (rows.length === 0) {
      return 0;
    }
    await this.players.ensureKnown(tx, rows.map((row) => row.uuid));
    const stored = await this.votes.lockTotals(tx, rows.map((row) => row.uuid));
    const { totals, changes } = totalsAfterImport(stored, rows);
    await this.votes.writeTotals(tx, totals);
    await this.votes.applyCountLevels(tx, countLevelDeltas(changes));
    return totals.length;
  }

  private async storeVotes(tx: Transaction, origin: Origin, items: readonly VoteInput[]): Promise<IngestCounts> {
    const { unique } = firstOfEachId(items);
    const stored = await this.votes.getStoredVoteIds(tx, origin, unique.map((vote) => vote.id));
    const fresh = unique.filter((vote) => !stored.has(vote.id));
    if (fresh.length === 0) {
      return { accepted: 0, skipped: items.length };
    }
    // Players first (votes reference them), then the votes, totals and levels, each in one order.
    await this.players.ensureKnown(tx, fresh.map((vote) => vote.uuid));
    if ((await this.votes.insertVotes(tx, origin, fresh, new Date())) !== fresh.length) {
      throw new ConcurrentRepeat();
    }
    const tallies = tallyVotes(fresh);
    const totals = await this.votes.lockTotals(tx, tallies.map((tally) => tally.uuid));
    const after = totalsAfterVotes(totals, tallies);
    await this.votes.writeTotals(tx, after.totals);
    await this.votes.applyCountLevels(tx, countLevelDeltas(after.changes));
    return { accepted: fresh.length, skipped: items.length - fresh.length };
  }

  private async storeLoginTexts(tx: Transaction, origin: Origin, items: readonly LoginTextChange[]): Promise<IngestCounts> {
    const { unique } = firstOfEachId(items);
    const stored = await this.loginTexts.getStoredReportIds(tx, origin, unique.map((change) => change.id));
    const fresh = unique.filter((change) => !stored.has(change.id));
    if (fresh.length === 0) {
      return { accepted: 0, skipped: items.length };
    }
    await this.players.ensureKnown(tx, fresh.map((change) => change.uuid));
    const now = new Date();
    if ((await this.loginTexts.insertReports(tx, origin, fresh, now)) !== fresh.length) {
      throw new ConcurrentRepeat();
    }
    const current = await this.loginTexts.lockCurrent(tx, fresh.map((change) => change.uuid));
    await this.loginTexts.writeCurrent(tx, textsAfterReports(current, fresh), now);
    return { accepted: fresh.length, skipped: items.length - fresh.length };
  }
}
