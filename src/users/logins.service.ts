import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Transaction, UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { LoginInput, prepareLoginBatch } from './login-batch';
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

  /** `ingest` inside the caller's transaction (the import of the original database batches its own). */
  async ingestIn(tx: Transaction, items: readonly LoginInput[]): Promise<IngestResult> {
    const batch = prepareLoginBatch(items, this.config.dataCutoff);
    if (batch.records.length === 0) {
      return { accepted: 0, skipped: items.length, beforeCutoff: batch.beforeCutoff };
    }
    // Sorted by (player, time): concurrent batches then take row and gap locks in one order on MySQL.
    const records = [...batch.records].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : a.loggedInAt.getTime() - b.loggedInAt.getTime()));
    // Players first: login_records.player_uuid references them.
    await this.players.recordLogins(tx, batch.players);
    const accepted = await this.repository.insertLogins(tx, records);
    return { accepted, skipped: items.length - accepted, beforeCutoff: batch.beforeCutoff };
  }

  /** The first login at or after `since`; used when DATA_CUTOFF was raised after the records were stored. */
  firstLoginSince(uuid: string, since: Date): Promise<Date | null> {
    return this.repository.getFirstLoginSince(uuid, since);
  }
}
