import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction';
import { PlayersService } from '../players/players.service';
import { LoginTextsRepository } from './login-texts.repository';
import { textsAfterImport } from './login-text-changes';
import type { IngestCounts } from './votes.service';
import { VotesService } from './votes.service';

/** A source row's total on one vote site: `first` is the `vote` table's site, `second` the `vote_monocraft` one's. */
export interface ImportedVoteTotalRow {
  /** The source row's key (for the importer's report; the stored key is the player and site). */
  sourceId: string;
  uuid: string;
  site: 'first' | 'second';
  count: number;
  lastVotedAt: Date | null;
}

/** A source row's login text (`vote.logintext`); null or blank: none. */
export interface ImportedLoginTextRow {
  sourceId: string;
  uuid: string;
  text: string | null;
}

/**
 * What the import of the original database calls, inside its own transaction
 * (docs/moving-from-original.md). Idempotent: a rerun replaces what an earlier import stored and
 * never adds to it; what the game server reported stays.
 */
@Injectable()
export class VotesImport {
  constructor(
    private readonly votes: VotesService,
    private readonly loginTexts: LoginTextsRepository,
    private readonly players: PlayersService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Sets the imported part of each player's count on the site (the recorded votes stay added to
   * it). accepted: totals created or changed; skipped: rows that changed nothing (a rerun) or
   * that a later row of the same player and site in the call replaced.
   */
  async importVoteTotalsIn(tx: Transaction, rows: readonly ImportedVoteTotalRow[]): Promise<IngestCounts> {
    const [first, second] = this.config.voteSites;
    const accepted = await this.votes.importTotalsIn(
      tx,
      rows.map((row) => ({ uuid: row.uuid.toLowerCase(), site: row.site === 'first' ? first : second, count: Math.max(0, Math.trunc(row.count)), lastVotedAt: row.lastVotedAt })),
    );
    return { accepted, skipped: rows.length - accepted };
  }

  /**
   * Sets each player's login text, unless the game server has reported one. accepted: texts
   * created or changed; skipped: unchanged (a rerun), kept (reported here), or replaced by a later
   * row of the same player in the call.
   */
  async importLoginTextsIn(tx: Transaction, rows: readonly ImportedLoginTextRow[]): Promise<IngestCounts> {
    if (rows.length === 0) {
      return { accepted: 0, skipped: 0 };
    }
    const normalised = rows.map((row) => ({ uuid: row.uuid.toLowerCase(), text: row.text }));
    await this.players.ensureKnown(tx, normalised.map((row) => row.uuid));
    const current = await this.loginTexts.lockCurrent(tx, normalised.map((row) => row.uuid));
    const texts = textsAfterImport(current, normalised);
    await this.loginTexts.writeCurrent(tx, texts, new Date());
    return { accepted: texts.length, skipped: rows.length - texts.length };
  }
}
