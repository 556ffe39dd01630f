import { Injectable, Optional } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { BANLIST_SYNC_JOB } from './banlist-sync.job';
import { BANLIST_SYNC_LEASE } from './banlist-sync.service';
import { SyncRunsRepository } from './sync-runs.repository';
import type { SyncSummary } from './banlist.view';
import { SyncLeaseService } from './sync-lease.service';

export interface SyncStatus {
  lastRun: SyncSummary | null;
  nextRunAt: string | null;
  /** The cron expression (UTC) this instance syncs on; null when its schedule is off. */
  schedule: string | null;
  inProgress: boolean;
}

/**
 * The last finished run (any instance), this instance's schedule and next run, and whether a run
 * holds the lease. The console says from `schedule` whether syncs also run by themselves.
 */
@Injectable()
export class BanlistSyncStatusService {
  constructor(
    private readonly runs: SyncRunsRepository,
    private readonly leases: SyncLeaseService,
    private readonly config: AppConfig,
    @Optional() private readonly registry?: SchedulerRegistry,
  ) {}

  async status(): Promise<SyncStatus> {
    const job = this.registry?.doesExist('cron', BANLIST_SYNC_JOB) ? this.registry.getCronJob(BANLIST_SYNC_JOB) : undefined;
    return {
      lastRun: await this.runs.getLastRun(),
      nextRunAt: job ? job.nextDate().toJSDate().toISOString() : null,
      schedule: job ? this.config.BANLIST_SYNC_CRON : null,
      inProgress: await this.leases.isHeld(BANLIST_SYNC_LEASE),
    };
  }
}
