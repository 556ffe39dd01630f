import { UnitOfWork } from '../../src/database/unit-of-work';
import type { EventType } from '../../src/events/event.types';
import type { AttemptView } from '../../src/events/webhook-deliveries.repository';
import { EventsService } from '../../src/events/events.service';
import type { TestApp } from './test-app';
import { sleep } from './webhook-receiver';

/** One attempt of a webhook delivery, as `GET /webhooks/{id}/deliveries` lists it. */
export type DeliveryAttempt = AttemptView;

/** Appends an event the way the workflow does: inside a transaction of the app. */
export async function recordEvent(app: TestApp, type: EventType, data: Record<string, unknown>, at?: Date): Promise<number> {
  return app.app.get(UnitOfWork).transaction((manager) => app.app.get(EventsService).record(manager, type, data, at));
}

/** Retries an assertion until it passes (or the time is up): for effects recorded just after a request arrives. */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
      await sleep(50);
    }
  }
}

