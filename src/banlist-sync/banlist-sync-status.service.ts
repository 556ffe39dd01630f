import { Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Repository } from 'typeorm';
import { BanlistSyncRun } from './banlist-sync-run.entity';
import { BANLIST_SYNC_JOB } from './banlist-sync.job';
import { BANLIST_SYNC_LEASE } from './banlist-sync.service';
import type { SyncSummary } from './banlist.view';
import { SyncLeaseService } from './sync-lease.service';

export interface SyncStatus {
  lastRun: SyncSummary | null;
  nextRunAt: string | null;
  inProgress: boolean;
}

/** The last finished run (any instance), this instance's next scheduled run, and whether a run holds the lease. */
@Injectable()
export class BanlistSyncStatusService {
  constructor(
    @InjectRepository(BanlistSyncRun) private readonly runs: Repository<BanlistSyncRun>,
    private readonly leases: SyncLeaseService,
    @Optional() private readonly registry?: SchedulerRegistry,
  ) {}

  async status(): Promise<SyncStatus> {
    const [last] = await this.runs.find({ order: { finishedAt: 'DESC', id: 'DESC' }, take: 1 });
    return {
      lastRun: last
        ? {
            players: last.players,
            updated: last.updated,
            failed: last.failed,
            removedBans: last.removedBans,
            startedAt: last.startedAt.toISOString(),
            finishedAt: last.finishedAt.toISOString(),
          }
        : null,
      nextRunAt: this.nextRunAt(),
      inProgress: await this.leases.isHeld(BANLIST_SYNC_LEASE),
    };
  }

  private nextRunAt(): string | null {
    if (!this.registry?.doesExist('cron', BANLIST_SYNC_JOB)) {
      return null;
    }
    return this.registry.getCronJob(BANLIST_SYNC_JOB).nextDate().toJSDate().toISOString();
  }
}
