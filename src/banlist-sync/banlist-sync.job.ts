import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { AppConfig } from '../config/app-config';
import { BanlistSyncService } from './banlist-sync.service';

export const BANLIST_SYNC_JOB = 'banlist-sync';

/**
 * The scheduled sync, on `BANLIST_SYNC_CRON` (UTC). Created only when the feature is on and a
 * scheduler exists (the HTTP server, not the CLI); see `banlistSyncJobProvider`.
 */
export class BanlistSyncJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BanlistSync');

  constructor(
    private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly sync: BanlistSyncService,
  ) {}

  onApplicationBootstrap(): void {
    const job = CronJob.from({ cronTime: this.config.BANLIST_SYNC_CRON, onTick: () => this.runOnSchedule(), timeZone: 'UTC', start: true });
    this.registry.addCronJob(BANLIST_SYNC_JOB, job);
    this.logger.log(`Ban-list sync scheduled (${this.config.BANLIST_SYNC_CRON} UTC); next run ${job.nextDate().toISO() ?? 'unknown'}.`);
  }

  onApplicationShutdown(): void {
    if (this.registry.doesExist('cron', BANLIST_SYNC_JOB)) {
      this.registry.deleteCronJob(BANLIST_SYNC_JOB);
    }
  }

  runOnSchedule(): Promise<void> {
    return this.sync.runScheduled();
  }
}

/** No job at all when the feature is off (and the start says so) or when no scheduler is loaded. */
export const banlistSyncJobProvider = {
  provide: BanlistSyncJob,
  inject: [AppConfig, BanlistSyncService, { token: SchedulerRegistry, optional: true }],
  useFactory: (config: AppConfig, sync: BanlistSyncService, registry?: SchedulerRegistry): BanlistSyncJob | null => {
    if (!registry) {
      return null;
    }
    if (!config.BANLIST_SOURCE_URL) {
      new Logger('BanlistSync').warn('Ban-list sync is off: BANLIST_SOURCE_URL is not set.');
      return null;
    }
    return new BanlistSyncJob(config, registry, sync);
  },
};
