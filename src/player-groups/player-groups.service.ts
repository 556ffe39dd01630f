import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { ConcurrentRepeat, firstOfEachId, retryingConcurrentRepeats } from '../votes/sender-ids';
import type { IngestCounts } from '../votes/votes.service';
import { groupsAfterImport, groupsAfterReports, type ImportedGroup } from './group-changes';
import { normaliseGroup } from './group-choice';
import { type GroupChange, PlayerGroupsRepository } from './player-groups.repository';

/** A group change as the game server reports it. */
export interface GroupChangeInput {
  id: string;
  uuid: string;
  group: string;
  expiresAt: Date | null;
  at: Date;
}

/** Stores permission-group changes (game-server batches and the import). */
@Injectable()
export class PlayerGroupsService {
  constructor(
    private readonly groups: PlayerGroupsRepository,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** One transaction: all of the batch is stored, or none of it. Re-sending stores nothing new. */
  async ingest(items: readonly GroupChangeInput[]): Promise<IngestCounts> {
    const changes: GroupChange[] = items.map((item) => ({ ...item, uuid: item.uuid.toLowerCase(), group: normaliseGroup(item.group) ?? 'default' }));
    return retryingConcurrentRepeats(() => this.unitOfWork.transaction((tx) => this.store(tx, changes)));
  }

  /** Imported groups inside the caller's transaction; returns how many rows were created or changed. */
  async importIn(tx: Transaction, rows: readonly ImportedGroup[]): Promise<number> {
    if (rows.length === 0) {
      return 0;
    }
    await this.players.ensureKnown(tx, rows.map((row) => row.uuid));
    const now = new Date();
    const current = await this.groups.lockCurrent(tx, rows.map((row) => row.uuid));
    const written = groupsAfterImport(current, rows, now);
    await this.groups.writeCurrent(tx, written, now);
    return written.length;
  }

  private async store(tx: Transaction, items: readonly GroupChange[]): Promise<IngestCounts> {
    const { unique } = firstOfEachId(items);
    const stored = await this.groups.getStoredReportIds(tx, 'game-server', unique.map((change) => change.id));
    const fresh = unique.filter((change) => !stored.has(change.id));
    if (fresh.length === 0) {
      return { accepted: 0, skipped: items.length };
    }
    await this.players.ensureKnown(tx, fresh.map((change) => change.uuid));
    const now = new Date();
    if ((await this.groups.insertReports(tx, 'game-server', fresh, now)) !== fresh.length) {
      throw new ConcurrentRepeat();
    }
    const current = await this.groups.lockCurrent(tx, fresh.map((change) => change.uuid));
    await this.groups.writeCurrent(tx, groupsAfterReports(current, fresh), now);
    return { accepted: fresh.length, skipped: items.length - fresh.length };
  }
}
