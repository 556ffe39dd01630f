import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
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

/** What the players site reads of a player's votes: one indexed read of precomputed rows. */
@Injectable()
export class VotesReader {
  constructor(
    private readonly votes: VotesRepository,
    private readonly config: AppConfig,
  ) {}

  /** `uuid` lower case, hyphenated. A player without votes has count 0 and the rank every such player shares. */
  async summary(uuid: string): Promise<VoteSummary> {
    const row = await this.votes.getSummary(uuid.toLowerCase(), this.config.voteSites);
    return {
      first: { count: row.firstCount, rank: row.firstAbove + 1 },
      second: { count: row.secondCount, rank: row.secondAbove + 1 },
      loginText: row.loginText,
    };
  }
}
