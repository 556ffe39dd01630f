import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { PlaceShares } from '../common/limits/place-shares';
import { withDeadline } from '../common/timing/deadline';
import { AppConfig } from '../config/app-config';
import { EventsRepository } from './events.repository';

const CHANNEL = 'community:events';
/** Without Redis, how often a waiting instance looks for events written by another instance. */
const POLL_MS = 250;
/** With Redis, the same look as a safety net (a lost message, Redis down). */
const POLL_WITH_REDIS_MS = 1000;
/**
 * How often the subscriber connection is checked: a connection that stalls without closing
 * (a paused network) would otherwise deliver nothing, silently, for ever.
 */
const SUBSCRIBER_CHECK_MS = 5000;
/** A refused long-poll (too many waiters) may try again after this many seconds. */
const WAITERS_RETRY_AFTER_SECONDS = 1;
/**
 * A consumer at its share of long-polls may try again after this many seconds: one of its own
 * waits must end first, and they last up to 30 s; sooner would only spin.
 */
const SHARE_RETRY_AFTER_SECONDS = 5;

/** Who holds a long-poll's place: the API key (its id) and the client address. */
export interface WaiterHolder {
  apiKey: string;
  address: string;
}

type Listener = () => void;

/**
 * Tells whoever waits (long-polls, the webhook worker) that an event may have been committed:
 * at once for events of this process (after their transaction commits), through Redis pub/sub
 * for other instances when REDIS_URL is set, else by a short poll of the latest event id while
 * anyone waits.
 */
@Injectable()
export class EventNotifier implements OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  /** Each waiter with the id it has seen up to: it wants any event above it. */
  private readonly waiters = new Map<Listener, number>();
  private readonly listeners = new Set<Listener>();
  /** Long-polls' places: in total, and per API key and per address (docs/reliability.md, "Fair shares"). */
  private readonly places: PlaceShares;
  private readonly publisher: Redis | undefined;
  private readonly subscriber: Redis | undefined;
  private poller: NodeJS.Timeout | undefined;
  private subscriberCheck: NodeJS.Timeout | undefined;
  /** The poller's query in flight: while the database stalls, ticks are skipped, not piled up. */
  private polling = false;
  private lastSeen = -1;
  private closing = false;
  private lastWarning = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly repository: EventsRepository,
  ) {
    this.places = new PlaceShares({ apiKey: config.EVENTS_MAX_WAITERS_PER_KEY, address: config.EVENTS_MAX_WAITERS_PER_ADDRESS }, config.EVENTS_MAX_WAITERS);
    if (config.REDIS_URL) {
      // Every command answers or fails within REDIS_COMMAND_TIMEOUT_MS (docs/reliability.md); a
      // notification that is lost meanwhile is caught by the poll below.
      const options = {
        maxRetriesPerRequest: 1,
        connectTimeout: config.REDIS_CONNECT_TIMEOUT_MS,
        commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
        disconnectTimeout: 200,
        retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
      };
      this.publisher = new Redis(config.REDIS_URL, { ...options, enableOfflineQueue: false });
      this.subscriber = new Redis(config.REDIS_URL, options);
      for (const client of [this.publisher, this.subscriber]) {
        client.on('error', (error: Error) => this.warn(`Redis unavailable for event notifications (${error.message}); polling instead.`));
      }
      this.subscriber.subscribe(CHANNEL).catch((error: unknown) => this.warn(`Redis subscribe failed (${String(error)}); polling instead.`));
      this.subscriber.on('message', () => this.wake());
      this.subscriberCheck = setInterval(() => void this.checkSubscriber(), SUBSCRIBER_CHECK_MS);
      this.subscriberCheck.unref();
    }
    this.pollEvery = config.REDIS_URL ? POLL_WITH_REDIS_MS : POLL_MS;
  }

  private readonly pollEvery: number;

  get shuttingDown(): boolean {
    return this.closing;
  }

  /** Wakes this process and tells the other instances. */
  announce(): void {
    this.wake();
    if (this.publisher?.status === 'ready') {
      this.publisher.publish(CHANNEL, '1').catch(() => undefined);
    }
  }

  /** Something else (the webhook worker) wants to hear of every new event. */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    this.updatePoller();
    return () => {
      this.listeners.delete(listener);
      this.updatePoller();
    };
  }

  /**
   * A place for one long-poll, held until it answers (call the returned release). Each waiter
   * holds a connection and a timer: past the total, 503 rather than grow; past the share of its
   * API key or address, 429, so that one consumer cannot lock the others out.
   */
  takePlace(holder: WaiterHolder): () => void {
    const place = this.places.take({ apiKey: holder.apiKey, address: holder.address });
    if (place.ok) {
      return place.release;
    }
    if (place.reason === 'total') {
      throw ApiError.unavailable('events.tooManyWaiters', WAITERS_RETRY_AFTER_SECONDS);
    }
    const message = place.keyKind === 'apiKey' ? 'events.tooManyWaitersForKey' : 'events.tooManyWaitersForAddress';
    throw new ApiError(429, 'rate_limited', msg(message, { share: place.share, seconds: SHARE_RETRY_AFTER_SECONDS }), undefined, {
      'Retry-After': String(SHARE_RETRY_AFTER_SECONDS),
    });
  }

  /**
   * Resolves at the next wake-up, after `timeoutMs`, or at once when the application is
   * shutting down. The caller re-reads the feed: a wake-up is a hint, not a promise. A long-poll
   * takes its place (`takePlace`) before its first wait.
   */
  nextWake(timeoutMs: number, after: number): Promise<void> {
    if (this.closing || timeoutMs <= 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        this.updatePoller();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.set(done, after);
      this.updatePoller();
    });
  }

  /** Long-polls answer at once when the server starts closing, so the drain is not held up. */
  onModuleDestroy(): void {
    this.closing = true;
    this.wakeWaiters();
    this.listeners.clear();
    this.updatePoller();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.subscriberCheck);
    for (const client of [this.subscriber, this.publisher]) {
      if (!client) {
        continue;
      }
      if (client.status !== 'ready') {
        client.disconnect();
        continue;
      }
      await client.quit().catch(() => client.disconnect());
    }
  }

  private wake(): void {
    this.wakeWaiters();
    for (const listener of this.listeners) {
      listener();
    }
  }

  private wakeWaiters(): void {
    for (const waiter of [...this.waiters.keys()]) {
      waiter();
    }
  }

  /** Polls the latest event id only while a long-poll waits (events of other instances without Redis). */
  private updatePoller(): void {
    // The webhook worker has its own tick; only long-polls need the fast look.
    const needed = !this.closing && this.waiters.size > 0;
    if (needed && !this.poller) {
      this.poller = setInterval(() => void this.poll(), this.pollEvery);
      this.poller.unref();
    } else if (!needed && this.poller) {
      clearInterval(this.poller);
      this.poller = undefined;
      this.lastSeen = -1;
    }
  }

  private async poll(): Promise<void> {
    if (this.polling) {
      return;
    }
    this.polling = true;
    try {
      const last = await this.repository.lastEventId();
      for (const [waiter, after] of [...this.waiters]) {
        if (last > after) {
          waiter();
        }
      }
      if (this.lastSeen !== -1 && last !== this.lastSeen) {
        for (const listener of this.listeners) {
          listener();
        }
      }
      this.lastSeen = last;
    } catch {
      // The database is briefly unreachable or closing: the next tick tries again.
    } finally {
      this.polling = false;
    }
  }

  /**
   * Subscribes again (harmless when subscribed: Redis answers with the same count). This checks
   * that the connection answers, and restores a subscription that a reconnect during a stall
   * lost (its resubscribe timed out). One that does not answer in time is dropped and reconnected.
   */
  private async checkSubscriber(): Promise<void> {
    const subscriber = this.subscriber;
    if (!subscriber || this.closing || subscriber.status !== 'ready') {
      return;
    }
    try {
      await withDeadline(this.config.REDIS_COMMAND_TIMEOUT_MS, () => subscriber.subscribe(CHANNEL), { what: 'Redis subscriber check' });
    } catch (error) {
      this.warn(`Redis subscriber stalled (${error instanceof Error ? error.message : String(error)}); reconnecting, polling meanwhile.`);
      subscriber.disconnect(true);
    }
  }

  private warn(message: string): void {
    if (Date.now() - this.lastWarning > 60_000) {
      this.lastWarning = Date.now();
      this.logger.warn(message);
    }
  }
}
