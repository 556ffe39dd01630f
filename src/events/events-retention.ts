import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
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

/** Runs the purge hourly in the server (not in the CLI); the method only delegates. */
export class EventsRetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  private timer: NodeJS.Timeout | undefined;
  private first: NodeJS.Timeout | undefined;

  constructor(private readonly retention: EventsRetention) {}

  onApplicationBootstrap(): void {
    this.first = setTimeout(() => void this.hourly(), FIRST_PURGE_MS);
    this.first.unref();
    this.timer = setInterval(() => void this.hourly(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.first);
    clearInterval(this.timer);
  }

  async hourly(): Promise<void> {
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
