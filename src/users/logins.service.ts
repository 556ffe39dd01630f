import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { LoginInput, PreparedLoginBatch, prepareLoginBatch } from './login-batch';
import { LoginsRepository } from './logins.repository';

export interface IngestResult {
  accepted: number;
  /** Before the cutoff, or an exact repeat (same uuid and time) of a stored or earlier record. */
  skipped: number;
  beforeCutoff: number;
}

/** Stores login records (game-server batches and the history import) and keeps `players` in step. */
@Injectable()
export class LoginsService {
  constructor(
    private readonly repository: LoginsRepository,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
  ) {}

  /** One transaction: all of the batch is stored, or none of it. Re-sending a batch stores nothing new. */
  async ingest(items: readonly LoginInput[]): Promise<IngestResult> {
    return this.unitOfWork.transaction((tx) => this.ingestIn(tx, items));
  }

  /** `ingest` inside the caller's transaction. */
  async ingestIn(tx: Transaction, items: readonly LoginInput[]): Promise<IngestResult> {
    return this.store(tx, items, (batch) => this.players.recordLogins(tx, batch.players));
  }

  /**
   * The import of the original database: like `ingestIn`, but only players missing from `known`
   * get a row now (and are added to it); their summaries are settled once at the end with
   * `PlayersService.settleFromLogins` (docs/benchmarks.md, "Importing the original database").
   */
  async ingestHistoryIn(tx: Transaction, items: readonly LoginInput[], known: Set<string>): Promise<IngestResult> {
    return this.store(tx, items, async (batch) => {
      const absent = batch.players.filter((player) => !known.has(player.uuid));
      await this.players.addAbsentFromLogins(tx, absent);
      for (const player of absent) {
        known.add(player.uuid);
      }
    });
  }

  private async store(tx: Transaction, items: readonly LoginInput[], keepPlayers: (batch: PreparedLoginBatch) => Promise<void>): Promise<IngestResult> {
    const batch = prepareLoginBatch(items, this.config.dataCutoff);
    if (batch.records.length === 0) {
      return { accepted: 0, skipped: items.length, beforeCutoff: batch.beforeCutoff };
    }
    // Sorted by (player, time): concurrent batches then take row and gap locks in one order on MySQL.
    const records = [...batch.records].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : a.loggedInAt.getTime() - b.loggedInAt.getTime()));
    // Players first: login_records.player_uuid references them.
    await keepPlayers(batch);
    const accepted = await this.repository.insertLogins(tx, records);
    return { accepted, skipped: items.length - accepted, beforeCutoff: batch.beforeCutoff };
  }

  /** The first login at or after `since`; used when DATA_CUTOFF was raised after the records were stored. */
  firstLoginSince(uuid: string, since: Date): Promise<Date | null> {
    return this.repository.getFirstLoginSince(uuid, since);
  }
}
