import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { EventsRepository } from './events.repository';

const CHANNEL = 'community:events';
/** Without Redis, how often a waiting instance looks for events written by another instance. */
const POLL_MS = 250;
/** With Redis, the same look as a safety net (a lost message, Redis down). */
const POLL_WITH_REDIS_MS = 1000;

type Listener = () => void;

/**
 * Tells whoever waits (long-polls, the webhook worker) that an event may have been committed:
 * at once for events of this process (after their transaction commits), through Redis pub/sub
 * for other instances when REDIS_URL is set, else by a short poll of the latest event id while
 * anyone waits.
 */
@Injectable()
export class EventNotifier implements EntitySubscriberInterface, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  /** Transactions that appended an event; told to the waiters when they commit. */
  private readonly pending = new WeakSet<QueryRunner>();
  /** Each waiter with the id it has seen up to: it wants any event above it. */
  private readonly waiters = new Map<Listener, number>();
  private readonly listeners = new Set<Listener>();
  private readonly publisher: Redis | undefined;
  private readonly subscriber: Redis | undefined;
  private poller: NodeJS.Timeout | undefined;
  private lastSeen = -1;
  private closing = false;
  private lastWarning = 0;

  constructor(
    config: AppConfig,
    @InjectDataSource() dataSource: DataSource,
    private readonly repository: EventsRepository,
  ) {
    dataSource.subscribers.push(this);
    if (config.REDIS_URL) {
      const options = { maxRetriesPerRequest: 1, connectTimeout: 1000, disconnectTimeout: 200, retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000) };
      this.publisher = new Redis(config.REDIS_URL, { ...options, enableOfflineQueue: false, commandTimeout: 500 });
      this.subscriber = new Redis(config.REDIS_URL, options);
      for (const client of [this.publisher, this.subscriber]) {
        client.on('error', (error: Error) => this.warn(`Redis unavailable for event notifications (${error.message}); polling instead.`));
      }
      this.subscriber.subscribe(CHANNEL).catch((error: unknown) => this.warn(`Redis subscribe failed (${String(error)}); polling instead.`));
      this.subscriber.on('message', () => this.wake());
    }
    this.pollEvery = config.REDIS_URL ? POLL_WITH_REDIS_MS : POLL_MS;
  }

  private readonly pollEvery: number;

  get shuttingDown(): boolean {
    return this.closing;
  }

  /** Called by the recorder inside the transaction that appends an event. */
  markPending(queryRunner: QueryRunner | undefined): void {
    if (queryRunner) {
      this.pending.add(queryRunner);
    } else {
      this.announce();
    }
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // Savepoints (nested transactions) commit too; only the outermost commit makes the event visible.
    if (this.pending.has(event.queryRunner) && !event.queryRunner.isTransactionActive) {
      this.pending.delete(event.queryRunner);
      this.announce();
    }
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) {
      this.pending.delete(event.queryRunner);
    }
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
   * Resolves at the next wake-up, after `timeoutMs`, or at once when the application is
   * shutting down. The caller re-reads the feed: a wake-up is a hint, not a promise.
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
    }
  }

  private warn(message: string): void {
    if (Date.now() - this.lastWarning > 60_000) {
      this.lastWarning = Date.now();
      this.logger.warn(message);
    }
  }
}
