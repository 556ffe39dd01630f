import { Injectable, Optional } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { BanlistClient } from './banlist-client';
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
  /** Whether a sync can run at all here (an upstream is configured); the console says so before any click. */
  enabled: boolean;
  /** Why it cannot: `no_source_url` when BANLIST_SOURCE_URL is not set; null when enabled. */
  offReason: SyncOffReason | null;
  /** The last finished runs (any instance), newest first, at most RECENT_RUNS. */
  recentRuns: SyncSummary[];
}

export type SyncOffReason = 'no_source_url';

/** How many finished runs the status lists (the console shows them as a short table). */
export const RECENT_RUNS = 5;

/**
 * The last finished run (any instance), this instance's schedule and next run, and whether a run
 * holds the lease. The console says from `schedule` whether syncs also run by themselves, and from
 * `enabled`/`offReason` that a sync cannot run at all here, before anyone clicks.
 */
@Injectable()
export class BanlistSyncStatusService {
  constructor(
    private readonly runs: SyncRunsRepository,
    private readonly leases: SyncLeaseService,
    private readonly client: BanlistClient,
    private readonly config: AppConfig,
    @Optional() private readonly registry?: SchedulerRegistry,
  ) {}

  async status(): Promise<SyncStatus> {
    // The rule that refuses a run (503) decides what the console says before any click.
    const enabled = this.client.configured;
    const [recentRuns, inProgress] = await Promise.all([this.runs.getRecentRuns(RECENT_RUNS), this.leases.isHeld(BANLIST_SYNC_LEASE)]);
    const job = this.registry?.doesExist('cron', BANLIST_SYNC_JOB) ? this.registry.getCronJob(BANLIST_SYNC_JOB) : undefined;
    return {
      lastRun: recentRuns[0] ?? null,
      nextRunAt: job ? job.nextDate().toJSDate().toISOString() : null,
      schedule: job ? this.config.BANLIST_SYNC_CRON : null,
      inProgress,
      enabled,
      offReason: enabled ? null : 'no_source_url',
      recentRuns,
    };
  }
}
