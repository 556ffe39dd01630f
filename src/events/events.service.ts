import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { EventNotifier, WaiterHolder } from './event-notifier';
import type { EventType, EventView } from './event.types';
import { EventsRepository } from './events.repository';
import type { Transaction } from '../database/transaction';

export interface FeedPage {
  data: EventView[];
  next: number;
}

/**
 * The outbox and the change feed (docs/events-and-webhooks.md). `record` runs inside the transaction of the
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
  async record(tx: Transaction, type: EventType, data: Record<string, unknown>, at = new Date()): Promise<number> {
    const id = await this.repository.append(tx, type, data, at);
    tx.onCommit(() => this.notifier.announce());
    return id;
  }

  /**
   * Events after `after`, oldest first. With `waitSeconds`, waits for the first one (woken by
   * the notifier), or answers empty after the wait or at once when the server shuts down.
   */
  async feed(after: number, limit: number, waitSeconds: number, holder: WaiterHolder): Promise<FeedPage> {
    // The server closes a connection idle for HTTP_IDLE_TIMEOUT_MS: answer (empty) a second before
    // that, so a long wait is never cut off mid-request (docs/reliability.md).
    const deadline = Date.now() + Math.min(waitSeconds * 1000, this.config.HTTP_IDLE_TIMEOUT_MS - 1000);
    // Taken before the first wait and kept until the answer: a request that answers at once holds none.
    let release: (() => void) | undefined;
    try {
      for (;;) {
        const data = await this.repository.eventsAfter(after, limit);
        const remaining = deadline - Date.now();
        if (data.length > 0 || remaining <= 0 || this.notifier.shuttingDown) {
          return { data, next: data.length > 0 ? data[data.length - 1].id : after };
        }
        release ??= this.notifier.takePlace(holder);
        await this.notifier.nextWake(remaining, after);
      }
    } finally {
      release?.();
    }
  }
}
