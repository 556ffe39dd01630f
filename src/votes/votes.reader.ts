import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { playersAbove } from './count-levels';
import { VotesRepository } from './votes.repository';

/** A player's votes on one site and their place: 1 + the players with more votes there (ties share). */
export interface SiteVotes {
  count: number;
  rank: number;
}

export interface VoteSummary {
  /** The first vote site (VOTE_SITES): feeds the join-message title. */
  first: SiteVotes;
  /** The second vote site: feeds the chat-colour rank. */
  second: SiteVotes;
  loginText: string | null;
}

/** What feeds a player's vote rewards: their counts on the two sites and their login text. */
export interface VoteCounts {
  first: number;
  second: number;
  loginText: string | null;
}

/**
 * What the players site reads of a player's votes: precomputed rows read by key, and each site's
 * count levels, cached until a player moves between them.
 */
@Injectable()
export class VotesReader {
  constructor(
    private readonly votes: VotesRepository,
    private readonly config: AppConfig,
  ) {}

  /** `uuid` any case, hyphenated. A player without votes has count 0 and the rank every such player shares. */
  async summary(uuid: string): Promise<VoteSummary> {
    const [first, second] = this.config.voteSites;
    // Together: one round trip on MySQL (the levels are usually cached, and then only their stamp is read).
    const [counts, firstLevels, secondLevels] = await Promise.all([this.counts(uuid), this.votes.getCountLevels(first), this.votes.getCountLevels(second)]);
    return {
      first: { count: counts.first, rank: playersAbove(firstLevels, counts.first) + 1 },
      second: { count: counts.second, rank: playersAbove(secondLevels, counts.second) + 1 },
      loginText: counts.loginText,
    };
  }

  /** The counts alone (no ranks): what the vote rewards (title, chat colour) are computed from. */
  async counts(uuid: string): Promise<VoteCounts> {
    const row = await this.votes.getCounts(uuid.toLowerCase(), this.config.voteSites);
    return { first: row.firstCount, second: row.secondCount, loginText: row.loginText };
  }
}
