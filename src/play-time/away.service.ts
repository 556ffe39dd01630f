import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../database/database-errors';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { AwayRepository, type NewAwayRecord } from './away.repository';

export interface AwayReportInput {
  id: string;
  uuid: string;
  mcid: string;
  seconds: number;
  at: Date;
}

/** Away-from-keyboard time: records idempotent by the sender's id, each added to its player's total as it is stored. */
@Injectable()
export class AwayService {
  constructor(
    private readonly away: AwayRepository,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The game server's reports, all or nothing; a re-sent id is skipped. */
  async report(items: readonly AwayReportInput[]): Promise<{ accepted: number; skipped: number }> {
    const run = (): Promise<number> =>
      this.unitOfWork.transaction(async (tx) => {
        const names = new Map(items.map((item) => [item.uuid.toLowerCase(), item.mcid]));
        await this.players.ensureAll(tx, [...names].map(([uuid, mcid]) => ({ uuid, mcid })));
        return this.storeIn(
          tx,
          'game-server',
          items.map((item) => ({ sourceId: item.id, uuid: item.uuid.toLowerCase(), seconds: item.seconds, at: item.at })),
        );
      });
    let accepted: number;
    try {
      accepted = await run();
    } catch (error) {
      // The same id sent twice at once (MySQL): the loser sees the winner's row when run again.
      if (!isUniqueViolation(error)) {
        throw error;
      }
      accepted = await run();
    }
    return { accepted, skipped: items.length - accepted };
  }

  /** Stores the records not stored yet (the first of repeated ids wins) and adds them to the totals; returns how many were new. */
  async storeIn(tx: Transaction, origin: string, records: readonly NewAwayRecord[]): Promise<number> {
    const stored = await this.away.getStoredIds(
      tx,
      origin,
      records.map((record) => record.sourceId),
    );
    const fresh = new Map<string, NewAwayRecord>();
    for (const record of records) {
      if (!stored.has(record.sourceId) && !fresh.has(record.sourceId)) {
        fresh.set(record.sourceId, record);
      }
    }
    if (fresh.size === 0) {
      return 0;
    }
    await this.away.insert(tx, origin, [...fresh.values()], new Date());
    const totals = new Map<string, number>();
    for (const record of fresh.values()) {
      totals.set(record.uuid, (totals.get(record.uuid) ?? 0) + record.seconds);
    }
    await this.away.addTotals(tx, totals);
    return fresh.size;
  }
}
