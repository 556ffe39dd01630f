import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { isDeadLocalHolder, newLeaseHolder } from '../common/lease-holder';
import { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { EventNotifier } from './event-notifier';
import { subscribes } from './event.types';
import { EventsRepository } from './events.repository';
import { AttemptRecord, DeliveryRecord, DeliveryStatus, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { AttemptResult, DeliveryOutcome, isSuccess, WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookRecord, WebhooksRepository } from './webhooks.repository';

/** How often an idle instance looks for due retries and for events written elsewhere. */
const TICK_MS = 500;
/** Webhooks one instance works on at the same time. */
const PARALLEL_WEBHOOKS = 8;
/** Deliveries sent for one webhook before its lease is given back (others get a turn). */
const DELIVERIES_PER_TURN = 100;
const EVENTS_PER_SCAN = 200;
/** Deliveries queued for a webhook in one step when its queue runs empty. */
const QUEUE_BATCH = 20;
const MAX_RETRY_DELAY_MS = 3_600_000;
/** After the worker's own bookkeeping failed (the database, not the receiver): first pause, doubling up to the cap. */
const BOOKKEEPING_RETRY_BASE_MS = 1000;
const BOOKKEEPING_RETRY_MAX_MS = 60_000;
/** How often a pass looks for leases left by a dead process on this host. */
const DEAD_LEASE_CHECK_MS = 2000;
/**
 * At shutdown, attempts in flight get this long to be answered and recorded before they are cut.
 * A cut attempt stays due and goes out again after the restart (same delivery id), so cutting one
 * whose request already reached the receiver would deliver it twice: the grace makes that rare
 * (only receivers slower than this), and it fits well inside the process's shutdown deadline.
 */
const SHUTDOWN_GRACE_MS = 5000;

/** The delay after the `failures`-th failed attempt: base, 2×base, 4×base, … at most one hour. */
export function retryDelayMs(baseMs: number, failures: number): number {
  return Math.min(baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 32), MAX_RETRY_DELAY_MS);
}

/**
 * Delivers events to webhooks, in event order per webhook, at least once.
 *
 * Each instance claims webhooks with a lease row (`webhooks.lease_holder`), so at most one
 * delivery per webhook is in flight across all instances sharing the database. Every database
 * step is a short transaction of its own; the HTTP call happens between them with no transaction
 * open. A webhook's queue is materialised lazily: when it has no pending delivery, the worker
 * takes the next subscribed event after the webhook's cursor and queues its delivery (and moves
 * the cursor) in one transaction.
 *
 * Each claimed webhook is worked on by a task of its own (at most PARALLEL_WEBHOOKS at once): a
 * pass only claims and starts tasks, and a task that ends frees its slot for the next pass. So a
 * slow receiver holds up its own queue and one slot, never the others (docs/reliability.md,
 * "Webhooks").
 */
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly holder = newLeaseHolder();
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | undefined;
  /** A retry due before the next tick gets a pass of its own at its time. */
  private dueTimer: NodeJS.Timeout | undefined;
  private dueAt = Infinity;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  /** The webhooks this instance is working on now, each by its own task. */
  private readonly working = new Map<number, Promise<void>>();
  /** Webhooks whose last task failed in the worker's own bookkeeping: left alone until `until`. */
  private readonly backoff = new Map<number, { failures: number; until: number }>();
  private deadLeasesCheckedAt = -Infinity;
  /** Cuts the attempts still in flight once the shutdown grace is over; they stay queued and go out after the restart. */
  private readonly abort = new AbortController();
  private shutdownGrace: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly repositories: WorkerRepositories,
    private readonly delivery: WebhookDeliveryService,
    private readonly unitOfWork: UnitOfWork,
    private readonly notifier: EventNotifier,
  ) {
    // Long enough to outlive one attempt with room to spare; renewed before each attempt.
    this.leaseMs = config.WEBHOOK_TIMEOUT_MS + 60_000;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.kick(), TICK_MS);
    this.timer.unref();
    this.unsubscribe = this.notifier.onEvent(() => this.kick());
    this.kick();
  }

  onModuleDestroy(): void {
    this.stopping = true;
    clearInterval(this.timer);
    clearTimeout(this.dueTimer);
    this.unsubscribe?.();
    // No new attempt starts (`stopping`); those in flight may still be answered and recorded.
    this.shutdownGrace = setTimeout(() => this.abort.abort(), Math.min(SHUTDOWN_GRACE_MS, this.config.WEBHOOK_TIMEOUT_MS));
    this.shutdownGrace.unref();
  }

  /** Lets the attempts in flight finish their bookkeeping (and give their leases back) while the database is open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.running;
    await Promise.all(this.working.values());
    clearTimeout(this.shutdownGrace);
  }

  /** Runs a pass at `at` (when that is earlier than any pass already planned). */
  private kickAt(at: Date): void {
    const time = at.getTime();
    if (this.stopping || time >= this.dueAt) {
      return;
    }
    clearTimeout(this.dueTimer);
    this.dueAt = time;
    this.dueTimer = setTimeout(() => {
      this.dueAt = Infinity;
      this.kick();
    }, Math.max(time - Date.now(), 0));
    this.dueTimer.unref();
  }

  /** Runs a pass now, or right after the current one. */
  kick(): void {
    if (this.stopping) {
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => this.logger.warn({ msg: 'Webhook delivery pass failed; retrying shortly', err: error }))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /**
   * One pass: claim free webhooks that have work, as many as there are free slots, and start a
   * task for each. Returns without waiting for the tasks: each kicks another pass when it ends.
   */
  async pass(): Promise<void> {
    const now = new Date();
    await this.takeOverDeadLeases(now);
    const slots = PARALLEL_WEBHOOKS - this.working.size;
    if (slots <= 0 || this.stopping) {
      return;
    }
    const waiting = [...this.backoff].filter(([, entry]) => entry.until > now.getTime()).map(([id]) => id);
    const candidates = await this.repositories.webhooks.webhooksWithWork(now, slots, [...this.working.keys(), ...waiting]);
    if (candidates.length === 0 || this.stopping) {
      return;
    }
    const claimed = await this.unitOfWork.transaction((tx) =>
      this.repositories.webhooks.claim(tx, candidates, this.holder, now, new Date(now.getTime() + this.leaseMs)),
    );
    for (const id of claimed) {
      const task = this.workOn(id).finally(() => {
        this.working.delete(id);
        this.kick();
      });
      this.working.set(id, task);
    }
  }

  /**
   * Frees the leases held by a process on this host that is no longer alive (a crash, a kill), so
   * a restart delivers at once instead of waiting out the lease. A live replica's leases, or
   * another host's, are left to expire as before.
   */
  private async takeOverDeadLeases(now: Date): Promise<void> {
    if (now.getTime() - this.deadLeasesCheckedAt < DEAD_LEASE_CHECK_MS) {
      return;
    }
    this.deadLeasesCheckedAt = now.getTime();
    const dead = (await this.repositories.webhooks.heldLeases(now)).filter((lease) => isDeadLocalHolder(lease.holder));
    for (const lease of dead) {
      await this.unitOfWork.transaction((tx) => this.repositories.webhooks.releaseLease(tx, lease.webhookId, lease.holder));
      this.logger.log({ msg: 'Took over the delivery lease of a process that is gone', webhookId: lease.webhookId, holder: lease.holder });
    }
  }

  /**
   * Sends the webhook's due deliveries one after another. Each step is one transaction: record
   * the outcome of the attempt just made and take the next due delivery (one commit per delivery).
   */
  private async workOn(webhookId: number): Promise<void> {
    try {
      let next = await this.unitOfWork.transaction((tx) => this.nextDueIn(tx, webhookId));
      for (let sent = 1; next && !this.stopping; sent += 1) {
        const { webhook, delivery, event } = next;
        const result = await this.delivery.attempt(webhook, delivery.deliveryId, event, this.abort.signal);
        if (this.abort.signal.aborted && result.statusCode === null) {
          return; // cut by the shutdown before an answer: not an attempt, the delivery stays due
        }
        const outcome = this.outcomeOf(event.at, result, delivery.attempts + 1);
        const attempt = { webhookId, deliveryId: delivery.deliveryId, eventId: delivery.eventId, attempt: delivery.attempts + 1, ...result, at: outcome.at };
        next = await this.unitOfWork.transaction(async (tx) => {
          await this.recordAttempt(tx, attempt, outcome.record);
          return sent < DELIVERIES_PER_TURN && !this.stopping ? this.nextDueIn(tx, webhookId) : undefined;
        });
        this.backoff.delete(webhookId);
        this.delivery.count(outcome.counted);
        if (outcome.counted === 'failed') {
          this.logger.warn({ msg: 'Webhook delivery failed for good', webhookId, deliveryId: delivery.deliveryId, eventId: delivery.eventId, attempts: attempt.attempt });
        }
        if (outcome.record.status === 'pending' && outcome.record.nextAttemptAt) {
          this.kickAt(outcome.record.nextAttemptAt);
        }
      }
    } catch (error) {
      // The database (not the receiver) failed: the delivery stays queued with its delivery id, and
      // this webhook waits a growing pause before its next try instead of being resent every tick.
      const failures = (this.backoff.get(webhookId)?.failures ?? 0) + 1;
      const pauseMs = Math.min(retryDelayMs(BOOKKEEPING_RETRY_BASE_MS, failures), BOOKKEEPING_RETRY_MAX_MS);
      this.backoff.set(webhookId, { failures, until: Date.now() + pauseMs });
      this.kickAt(new Date(Date.now() + pauseMs));
      this.logger.warn({ msg: 'Webhook delivery bookkeeping failed; the delivery stays queued', webhookId, retryInMs: pauseMs, err: error });
    } finally {
      await this.unitOfWork.transaction((tx) => this.repositories.webhooks.releaseLease(tx, webhookId, this.holder)).catch(() => undefined);
    }
  }

  /**
   * The head of the webhook's queue when it is due. An empty queue takes the next subscribed
   * events after the webhook's cursor (up to QUEUE_BATCH at once) and moves the cursor past them.
   */
  private async nextDueIn(tx: Transaction, webhookId: number): Promise<Due | undefined> {
    const now = new Date();
    if (!(await this.repositories.webhooks.renewLease(tx, webhookId, this.holder, new Date(now.getTime() + this.leaseMs)))) {
      return undefined;
    }
    const webhook = await this.repositories.webhooks.webhookIn(tx, webhookId);
    if (!webhook?.active) {
      return undefined;
    }
    let delivery = await this.repositories.deliveries.head(tx, webhookId);
    let cursor = webhook.cursorEventId;
    while (!delivery) {
      const events = await this.repositories.events.eventsAfterIn(tx, cursor, EVENTS_PER_SCAN);
      const wanted = events.filter((event) => subscribes(webhook.events, event.type)).slice(0, QUEUE_BATCH);
      if (wanted.length > 0) {
        for (const event of wanted) {
          // The cursor moves only while this instance holds the lease: a lost lease queues nothing.
          if (!(await this.repositories.webhooks.advanceCursor(tx, webhookId, this.holder, event.id))) {
            return undefined;
          }
          await this.repositories.deliveries.enqueue(tx, { webhookId, deliveryId: randomUUID(), eventId: event.id, type: event.type, now });
        }
        delivery = await this.repositories.deliveries.head(tx, webhookId);
        break;
      }
      if (events.length === 0) {
        return undefined;
      }
      cursor = events[events.length - 1].id;
      await this.repositories.webhooks.advanceCursor(tx, webhookId, this.holder, cursor);
      if (events.length < EVENTS_PER_SCAN) {
        return undefined;
      }
    }
    if (!delivery) {
      return undefined;
    }
    if (delivery.nextAttemptAt.getTime() > now.getTime()) {
      this.kickAt(delivery.nextAttemptAt);
      return undefined;
    }
    const event = delivery.eventId === null ? undefined : await this.repositories.events.eventById(tx, delivery.eventId);
    if (!event) {
      // The event is gone (retention): nothing left to send.
      await this.recordAttempt(
        tx,
        { webhookId, deliveryId: delivery.deliveryId, eventId: delivery.eventId, attempt: delivery.attempts + 1, statusCode: null, error: 'the event no longer exists', durationMs: 0, at: now },
        { status: 'failed', countsAsAttempt: true },
      );
      return undefined;
    }
    return { webhook, delivery, event };
  }

  /** Logs the attempt and moves the delivery on; an attempt that counts also updates the webhook's `lastDeliveryAt` and `failing`. */
  private async recordAttempt(tx: Transaction, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<void> {
    await this.repositories.deliveries.recordAttempt(tx, attempt, outcome);
    if (outcome.countsAsAttempt) {
      await this.repositories.webhooks.recordDeliveryOutcome(tx, attempt.webhookId, attempt.at, isSuccess(attempt.statusCode));
    }
  }

  /** What an attempt's result means: delivered, retried later (growing delays), failed after the window, or Discord's 429 (not an attempt). */
  private outcomeOf(eventAt: string, result: AttemptResult, attemptNumber: number): { at: Date; record: AttemptOutcome; counted: DeliveryOutcome } {
    const at = new Date();
    if (result.rateLimitedMs !== undefined) {
      return { at, record: { status: 'pending', nextAttemptAt: new Date(at.getTime() + result.rateLimitedMs), countsAsAttempt: false }, counted: 'rate_limited' };
    }
    if (isSuccess(result.statusCode)) {
      return { at, record: { status: 'delivered', countsAsAttempt: true }, counted: 'delivered' };
    }
    if (at.getTime() - new Date(eventAt).getTime() >= this.config.WEBHOOK_RETRY_WINDOW_SECONDS * 1000) {
      return { at, record: { status: 'failed', countsAsAttempt: true }, counted: 'failed' };
    }
    const nextAttemptAt = new Date(at.getTime() + retryDelayMs(this.config.WEBHOOK_RETRY_BASE_MS, attemptNumber));
    return { at, record: { status: 'pending', nextAttemptAt, countsAsAttempt: true }, counted: 'retry' };
  }
}

/** Where an attempt leaves its delivery. */
interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt?: Date;
  countsAsAttempt: boolean;
}

/** The three tables the worker moves through: the outbox, the webhooks (cursor, lease) and their deliveries. */
interface WorkerRepositories {
  events: EventsRepository;
  webhooks: WebhooksRepository;
  deliveries: WebhookDeliveriesRepository;
}

type Due = { webhook: WebhookRecord; delivery: DeliveryRecord; event: { id: number; type: string; at: string; data: Record<string, unknown> } };

/** The worker runs in the HTTP server only (a scheduler exists there), never in the CLI. */
export const webhookWorkerProvider = {
  provide: WebhookWorker,
  inject: [
    AppConfig,
    EventsRepository,
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhookDeliveryService,
    UnitOfWork,
    EventNotifier,
    { token: SchedulerRegistry, optional: true },
  ],
  useFactory: (
    config: AppConfig,
    events: EventsRepository,
    webhooks: WebhooksRepository,
    deliveries: WebhookDeliveriesRepository,
    delivery: WebhookDeliveryService,
    unitOfWork: UnitOfWork,
    notifier: EventNotifier,
    registry?: SchedulerRegistry,
  ): WebhookWorker | null => (registry ? new WebhookWorker(config, { events, webhooks, deliveries }, delivery, unitOfWork, notifier) : null),
};
