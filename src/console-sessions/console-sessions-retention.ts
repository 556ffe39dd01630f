import { Logger } from '@nestjs/common';
import { Interval, SchedulerRegistry, Timeout } from '@nestjs/schedule';
import { ConsoleSessionsService } from './console-sessions.service';

/** Ended sessions are refused on use anyway; the purge only keeps the table small. */
const PURGE_EVERY_MS = 15 * 60_000;
const FIRST_PURGE_MS = 60_000;

/** The names under which the job's timers appear in the SchedulerRegistry. */
export const CONSOLE_SESSIONS_RETENTION_JOB = 'console-sessions-retention';
const CONSOLE_SESSIONS_RETENTION_FIRST = 'console-sessions-retention-first';

/**
 * Deletes expired console sessions every 15 minutes in the server (not in the CLI), through
 * @nestjs/schedule; the methods only delegate. One purge at a time: a tick that finds one still
 * running joins it.
 */
export class ConsoleSessionsRetentionJob {
  private readonly logger = new Logger('ConsoleSessions');
  private running: Promise<void> | undefined;

  constructor(private readonly sessions: ConsoleSessionsService) {}

  @Timeout(CONSOLE_SESSIONS_RETENTION_FIRST, FIRST_PURGE_MS)
  soonAfterStart(): Promise<void> {
    return this.everyQuarterHour();
  }

  @Interval(CONSOLE_SESSIONS_RETENTION_JOB, PURGE_EVERY_MS)
  everyQuarterHour(): Promise<void> {
    this.running ??= this.purge().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async purge(): Promise<void> {
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
