import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { RequestMetrics } from './request-metrics';

export type DatabaseErrorKind = 'unavailable' | 'deadlock' | 'query';
/**
 * `requests`: the per-address request limit; the others: the rule of the sign-in limits that
 * refused (SECURITY.md, "Sign-in limits"). Plain labels, so a counter needs to know no rule.
 */
export type RateLimitName = 'requests' | 'account-address' | 'address' | 'account-slowdown' | 'account-sign-ins';
export type BanlistRunOutcome = 'finished' | 'stopped' | 'skipped' | 'failed';
/** A 2xx, a failed attempt to retry, given up, or Discord's 429 (not an attempt). */
export type WebhookDeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'rate_limited';

/**
 * The one way to count (docs/operations.md, Metrics): every counter of `GET /metrics`, in one
 * registry per application (not prom-client's global one, so several applications in one
 * process, as in the tests, do not collide). It sits on the ground beside the database, so the
 * unit of work, the exception filter and every feature inject it alike and call the method of
 * what happened; rendering the registry for scrapers is the metrics module's job.
 */
@Injectable()
export class Telemetry {
  readonly registry = new Registry();

  /** `http_requests_total` and `http_request_duration_seconds`, by route template, method and status. */
  private readonly requests = new RequestMetrics(this.registry);

  /** Database errors that ended a request: unreachable/busy (503), deadlock victim after the retries, or another query error (500). */
  private readonly databaseErrors = new Counter({
    name: 'database_errors_total',
    help: 'Database errors that ended a request, by kind (unavailable, deadlock, query).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  /** Transactions run again because InnoDB chose them as a deadlock victim (MySQL/MariaDB). */
  private readonly deadlockRetries = new Counter({
    name: 'database_deadlock_retries_total',
    help: 'Write transactions retried after a deadlock.',
    registers: [this.registry],
  });

  /** 429 answers, by limit: `requests` (per address), or the sign-in rule: `account-address`, `address`, `account-slowdown`. */
  private readonly rateLimitRefusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429, by limit (requests, account-address, address, account-slowdown, account-sign-ins).',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  /**
   * Ban-list sync runs started on this instance: finished, stopped (the circuit breaker: the
   * upstream timed out too often in a row), skipped (another run held the lease) or failed.
   */
  private readonly banlistRuns = new Counter({
    name: 'banlist_sync_runs_total',
    help: 'Ban-list sync runs, by outcome (finished, stopped, skipped, failed).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** Webhook delivery attempts: delivered (2xx), retry (failed, tried again later), failed (given up), rate_limited (Discord's 429). */
  private readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retry, failed, rate_limited).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Known label values start at 0, so a dashboard sees the series before the first event.
    (['unavailable', 'deadlock', 'query'] satisfies DatabaseErrorKind[]).forEach((kind) => this.databaseErrors.inc({ kind }, 0));
    (['requests', 'account-address', 'address', 'account-slowdown', 'account-sign-ins'] satisfies RateLimitName[]).forEach((limit) => this.rateLimitRefusals.inc({ limit }, 0));
    (['finished', 'stopped', 'skipped', 'failed'] satisfies BanlistRunOutcome[]).forEach((outcome) => this.banlistRuns.inc({ outcome }, 0));
    (['delivered', 'retry', 'failed', 'rate_limited'] satisfies WebhookDeliveryOutcome[]).forEach((outcome) => this.webhookDeliveries.inc({ outcome }, 0));
  }

  /**
   * Everything counted, in the Prometheus text format: the registry's metrics, then the request
   * duration histogram, which RequestMetrics writes itself (request-metrics.ts says why). The
   * registry ends its text with a line feed and separates metrics by a blank line; so does this.
   */
  async exposition(): Promise<string> {
    return `${await this.registry.metrics()}\n${this.requests.durationExposition()}\n`;
  }

  /** One answered request; called once per response by the onResponse hook. */
  observeRequest(route: string | undefined, method: string, status: number, elapsedMs: number): void {
    this.requests.observe(route, method, status, elapsedMs / 1000);
  }

  databaseError(kind: DatabaseErrorKind): void {
    this.databaseErrors.inc({ kind });
  }

  deadlockRetry(): void {
    this.deadlockRetries.inc();
  }

  rateLimitRefusal(limit: RateLimitName): void {
    this.rateLimitRefusals.inc({ limit });
  }

  banlistRun(outcome: BanlistRunOutcome): void {
    this.banlistRuns.inc({ outcome });
  }

  webhookDelivery(outcome: WebhookDeliveryOutcome): void {
    this.webhookDeliveries.inc({ outcome });
  }
}
