import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { EventNotifier } from './event-notifier';
import type { EventType, EventView } from './event.types';
import { EventsRepository } from './events.repository';

export interface FeedPage {
  data: EventView[];
  next: number;
}

/**
 * The outbox and the change feed (contract 13.6). `record` runs inside the transaction of the
 * change it describes, so the two commit or roll back together.
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly repository: EventsRepository,
    private readonly notifier: EventNotifier,
    private readonly config: AppConfig,
  ) {}

  /** Appends an event to the caller's transaction; waiters hear of it once that transaction commits. */
  async record(manager: EntityManager, type: EventType, data: Record<string, unknown>, at = new Date()): Promise<number> {
    const id = await this.repository.append(manager, type, data, at);
    this.notifier.markPending(manager.queryRunner);
    return id;
  }

  /**
   * Events after `after`, oldest first. With `waitSeconds`, waits for the first one (woken by
   * the notifier), or answers empty after the wait or at once when the server shuts down.
   */
  async feed(after: number, limit: number, waitSeconds: number): Promise<FeedPage> {
    // The server closes a connection idle for HTTP_IDLE_TIMEOUT_MS: answer (empty) a second before
    // that, so a long wait is never cut off mid-request (docs/reliability.md).
    const deadline = Date.now() + Math.min(waitSeconds * 1000, this.config.HTTP_IDLE_TIMEOUT_MS - 1000);
    for (;;) {
      const data = await this.repository.eventsAfter(after, limit);
      const remaining = deadline - Date.now();
      if (data.length > 0 || remaining <= 0 || this.notifier.shuttingDown) {
        return { data, next: data.length > 0 ? data[data.length - 1].id : after };
      }
      await this.notifier.nextWake(remaining, after);
    }
  }
}
