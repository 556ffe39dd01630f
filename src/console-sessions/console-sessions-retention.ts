import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { ConsoleSessionsService } from './console-sessions.service';

/** Ended sessions are refused on use anyway; the purge only keeps the table small. */
const PURGE_EVERY_MS = 15 * 60_000;
const FIRST_PURGE_MS = 60_000;

/** Deletes expired console sessions every 15 minutes in the server (not in the CLI); the method only delegates. */
export class ConsoleSessionsRetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ConsoleSessions');
  private timer: NodeJS.Timeout | undefined;
  private first: NodeJS.Timeout | undefined;

  constructor(private readonly sessions: ConsoleSessionsService) {}

  onApplicationBootstrap(): void {
    this.first = setTimeout(() => void this.everyQuarterHour(), FIRST_PURGE_MS);
    this.first.unref();
    this.timer = setInterval(() => void this.everyQuarterHour(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.first);
    clearInterval(this.timer);
  }

  async everyQuarterHour(): Promise<void> {
    try {
      const removed = await this.sessions.purge();
      if (removed > 0) {
        this.logger.log({ msg: 'Removed expired console sessions', removed });
      }
    } catch (error) {
      this.logger.warn({ msg: 'Purging expired console sessions failed; the next run tries again', err: error });
    }
  }
}

export const consoleSessionsRetentionJobProvider = {
  provide: ConsoleSessionsRetentionJob,
  inject: [ConsoleSessionsService, { token: SchedulerRegistry, optional: true }],
  useFactory: (sessions: ConsoleSessionsService, registry?: SchedulerRegistry): ConsoleSessionsRetentionJob | null => (registry ? new ConsoleSessionsRetentionJob(sessions) : null),
};
