import { Injectable, Optional } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { BANLIST_SYNC_JOB } from './banlist-sync.job';
import { BANLIST_SYNC_LEASE } from './banlist-sync.service';
import { BanlistRepository } from './banlist.repository';
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
    private readonly banlist: BanlistRepository,
    private readonly leases: SyncLeaseService,
    @Optional() private readonly registry?: SchedulerRegistry,
  ) {}

  async status(): Promise<SyncStatus> {
    return {
      lastRun: await this.banlist.getLastRun(),
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
