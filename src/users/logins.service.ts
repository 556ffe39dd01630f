import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { executeCountingRows } from '../players/affected-rows';
import { PlayersService } from '../players/players.service';
import { LoginInput, prepareLoginBatch } from './login-batch';
import { LoginRecord } from './login-record.entity';

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
    @InjectRepository(LoginRecord) private readonly records: Repository<LoginRecord>,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
  ) {}

  /** One transaction: all of the batch is stored, or none of it. Re-sending a batch stores nothing new. */
  async ingest(items: readonly LoginInput[]): Promise<IngestResult> {
    const batch = prepareLoginBatch(items, this.config.dataCutoff);
    if (batch.records.length === 0) {
      return { accepted: 0, skipped: items.length, beforeCutoff: batch.beforeCutoff };
    }
    const accepted = await this.unitOfWork.transaction(async (manager) => {
      // Players first: login_records.player_uuid references them.
      await this.players.recordLogins(manager, batch.players);
      return executeCountingRows(
        manager,
        manager
          .createQueryBuilder()
          .insert()
          .into(LoginRecord)
          .orIgnore()
          .values(batch.records.map((record) => ({ playerUuid: record.uuid, mcid: record.mcid, loggedInAt: record.loggedInAt, permission: record.permission }))),
      );
    });
    return { accepted, skipped: items.length - accepted, beforeCutoff: batch.beforeCutoff };
  }

  /** The first login at or after `since`; used when DATA_CUTOFF was raised after the records were stored. */
  async firstLoginSince(uuid: string, since: Date): Promise<Date | null> {
    const first = await this.records
      .createQueryBuilder('record')
      .where('record.player_uuid = :uuid AND record.logged_in_at >= :since', { uuid, since })
      .orderBy('record.logged_in_at', 'ASC')
      .limit(1)
      .getOne();
    return first?.loggedInAt ?? null;
  }
}
