import { Injectable, Logger } from '@nestjs/common';
import { Interval, SchedulerRegistry, Timeout } from '@nestjs/schedule';
import { UnitOfWork } from '../database/unit-of-work';
import { EventsRepository } from './events.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Events and deliveries are kept 30 days (docs/events-and-webhooks.md). */
const RETENTION_DAYS = 30;
const PURGE_EVERY_MS = 60 * 60_000;
/** The first purge soon after start, so a server restarted more often than hourly still purges. */
const FIRST_PURGE_MS = 60_000;

@Injectable()
export class EventsRetention {
  constructor(
    private readonly events: EventsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Deletes what is older than 30 days; a delivery still pending stays until it is settled. */
  purge(now = new Date()): Promise<{ events: number; deliveries: number; attempts: number }> {
    const cutoff = new Date(now.getTime() - RETENTION_DAYS * 86_400_000);
    return this.unitOfWork.transaction(async (tx) => {
      const { deliveries, attempts } = await this.deliveries.deleteOlderThan(tx, cutoff);
      const events = await this.events.deleteOlderThan(tx, cutoff);
      return { events, deliveries, attempts };
    });
  }
}

/** The names under which the job's timers appear in the SchedulerRegistry. */
export const EVENTS_RETENTION_JOB = 'events-retention';
const EVENTS_RETENTION_FIRST = 'events-retention-first';

/**
 * Runs the purge hourly in the server (not in the CLI), through @nestjs/schedule, which stops the
 * timers at shutdown; the methods only delegate. One purge at a time: a tick that finds one still
 * running joins it instead of starting a second.
 */
export class EventsRetentionJob {
  private readonly logger = new Logger('Events');
  private running: Promise<void> | undefined;

  constructor(private readonly retention: EventsRetention) {}

  @Timeout(EVENTS_RETENTION_FIRST, FIRST_PURGE_MS)
  soonAfterStart(): Promise<void> {
    return this.hourly();
  }

  @Interval(EVENTS_RETENTION_JOB, PURGE_EVERY_MS)
  hourly(): Promise<void> {
    this.running ??= this.purge().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async purge(): Promise<void> {
    try {
      const removed = await this.retention.purge();
      if (removed.events + removed.deliveries + removed.attempts > 0) {
        this.logger.log({ msg: 'Removed events and deliveries older than 30 days', ...removed });
      }
    } catch (error) {
      this.logger.warn({ msg: 'Purging old events failed; next hour tries again', err: error });
    }
  }
}

export const eventsRetentionJobProvider = {
  provide: EventsRetentionJob,
  inject: [EventsRetention, { token: SchedulerRegistry, optional: true }],
  useFactory: (retention: EventsRetention, registry?: SchedulerRegistry): EventsRetentionJob | null => (registry ? new EventsRetentionJob(retention) : null),
};
