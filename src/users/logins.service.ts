import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { datetimeParameter, executeCountingRows, insertIgnore } from '../database/affected-rows';
import { PlayersService } from '../players/players.service';
import { LoginInput, prepareLoginBatch } from './login-batch';
import { LoginRecord } from './login-record.entity';

/** Rows per INSERT statement (4 parameters each): within SQLite's placeholder limit at any import batch size. */
const INSERT_CHUNK = 1000;

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
    // Sorted by (player, time): concurrent batches then take row and gap locks in one order on MySQL.
    const records = [...batch.records].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : a.loggedInAt.getTime() - b.loggedInAt.getTime()));
    const accepted = await this.unitOfWork.transaction(async (manager) => {
      // Players first: login_records.player_uuid references them.
      await this.players.recordLogins(manager, batch.players);
      let inserted = 0;
      for (let start = 0; start < records.length; start += INSERT_CHUNK) {
        const chunk = records.slice(start, start + INSERT_CHUNK);
        inserted += await executeCountingRows(
          manager,
          `${insertIgnore(manager)} INTO login_records (player_uuid, mcid, logged_in_at, permission) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
          chunk.flatMap((record) => [record.uuid, record.mcid, datetimeParameter(manager, record.loggedInAt), record.permission]),
        );
      }
      return inserted;
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
