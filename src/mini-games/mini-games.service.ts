import { Injectable } from '@nestjs/common';
import { MCID_PATTERN } from '../common/identifiers';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { type NewResult, type ResultOrigin, MiniGamesRepository } from './mini-games.repository';
import { periodmatchScore } from './periodmatch-score';

/** A periodmatch result as a sender gives it (its own id as `sourceId`). */
export type ResultInput = Omit<NewResult, 'score'>;

export interface IngestCounts {
  accepted: number;
  skipped: number;
}

/** Stores periodmatch results with their ranking score, in the caller's or its own transaction. */
@Injectable()
export class MiniGamesService {
  constructor(
    private readonly repository: MiniGamesRepository,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The game server's batch: all or nothing; a re-sent id is skipped. */
  report(results: readonly ResultInput[]): Promise<IngestCounts> {
    return this.unitOfWork.transaction((tx) => this.storeIn(tx, 'game-server', results));
  }

  async storeIn(tx: Transaction, origin: ResultOrigin, results: readonly ResultInput[]): Promise<IngestCounts> {
    await this.ensurePlayers(tx, results);
    // Sorted by source id: concurrent batches take unique-key locks in one order on MySQL.
    const rows = results
      .map((result) => ({ ...result, uuid: result.uuid.toLowerCase(), score: periodmatchScore(result.success, result.failure, result.calcMatchTime) }))
      .sort((a, b) => (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0));
    const accepted = await this.repository.insertMany(tx, origin, rows);
    return { accepted, skipped: results.length - accepted };
  }

  /** A player unknown to `players` gets a bare row (as a user key does); a name that is no game id adds none. */
  private async ensurePlayers(tx: Transaction, results: readonly ResultInput[]): Promise<void> {
    const names = new Map<string, string>();
    for (const result of results) {
      if (MCID_PATTERN.test(result.mcid)) {
        names.set(result.uuid.toLowerCase(), result.mcid);
      }
    }
    await this.players.ensureAll(tx, [...names].map(([uuid, mcid]) => ({ uuid, mcid })));
  }
}
