import { Injectable } from '@nestjs/common';
import { MiniGamesRepository, type RankedResult } from './mini-games.repository';

/** The most results `recent` answers with. */
export const RECENT_MAX = 50;

/** What the players site reads of a player's mini-game results. */
@Injectable()
export class MiniGamesReader {
  constructor(private readonly repository: MiniGamesRepository) {}

  /** The player's newest periodmatch results (by end time, at most 50), each with its place in its category; [] when none. */
  recent(uuid: string, limit = RECENT_MAX): Promise<RankedResult[]> {
    return this.repository.recentForPlayer(uuid.toLowerCase(), Math.max(0, Math.min(Math.trunc(limit), RECENT_MAX)));
  }
}
