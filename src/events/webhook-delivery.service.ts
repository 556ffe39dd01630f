import { Injectable } from '@nestjs/common';
import { BuildInfo } from '../common/build-info';
import { Telemetry, type WebhookDeliveryOutcome } from '../common/telemetry/telemetry';
import { discordMessage, playersOf } from './discord-message';
import { PING_TYPE } from './event.types';
import { TargetRefused, WebhookSender } from './webhook-sender';
import { signatureHeader } from './webhook-signature';
import type { WebhookRecord } from './webhooks.repository';
import { PlayerNameLookup } from './player-name-lookup';

/** What one attempt came to, for the log and the metrics. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Discord's 429: wait this long and send again; not an attempt. */
  rateLimitedMs?: number;
}

/** What one delivery attempt came to, as counted in `webhook_deliveries_total` (docs/operations.md, Metrics). */
export type DeliveryOutcome = WebhookDeliveryOutcome;

/** What gets sent: an event of the feed, or the test ping (id null). */
export interface OutgoingEvent {
  id: number | null;
  type: string;
  at: string;
  data: Record<string, unknown>;
}

/** Discord may ask for minutes; beyond this the delivery simply waits for its next turn. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** Builds, signs and sends one attempt of one delivery. Holds no transaction. */
@Injectable()
export class WebhookDeliveryService {
  private readonly userAgent: string;

  constructor(
    private readonly sender: WebhookSender,
    private readonly players: PlayerNameLookup,
    buildInfo: BuildInfo,
    private readonly telemetry: Telemetry,
  ) {
    this.userAgent = `community-service-webhooks/${buildInfo.version}`;
  }

  count(outcome: DeliveryOutcome): void {
    this.telemetry.webhookDelivery(outcome);
  }

  async attempt(webhook: WebhookRecord, deliveryId: string, event: OutgoingEvent, signal?: AbortSignal): Promise<AttemptResult> {
    const body = webhook.format === 'discord' ? JSON.stringify(discordMessage(event, await this.players.getNames(playersOf(event.data)))) : JSON.stringify(event);
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    try {
      const answer = await this.sender.post(
        webhook.url,
        {
          'content-type': 'application/json',
          'user-agent': this.userAgent,
          'x-community-event': event.type,
          'x-community-delivery': deliveryId,
          'x-community-signature': signatureHeader(webhook.secret, body, Math.floor(Date.now() / 1000)),
        },
        body,
        signal,
      );
      const result: AttemptResult = { statusCode: answer.statusCode, error: null, durationMs: elapsed() };
      if (webhook.format === 'discord' && answer.statusCode === 429) {
        result.rateLimitedMs = retryAfterMs(answer.body, answer.headers['retry-after']);
      }
      return result;
    } catch (error) {
      const message = error instanceof TargetRefused ? `refused: ${error.message}` : error instanceof Error ? error.message : String(error);
      return { statusCode: null, error: message.slice(0, 255), durationMs: elapsed() };
    }
  }

  /** The test ping of `POST /webhooks/{id}/test`. */
  static ping(webhookId: number): OutgoingEvent {
    return { id: null, type: PING_TYPE, at: new Date().toISOString(), data: { webhookId } };
  }
}

/** Discord's `retry_after` (seconds, in the JSON body), else the Retry-After header, else 1 s. */
export function retryAfterMs(body: string, header: string | string[] | undefined): number {
  let seconds: number | undefined;
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown };
    if (typeof parsed.retry_after === 'number' && Number.isFinite(parsed.retry_after)) {
      seconds = parsed.retry_after;
    }
  } catch {
    // Not JSON: fall back to the header.
  }
  if (seconds === undefined && typeof header === 'string' && /^\d+(\.\d+)?$/.test(header.trim())) {
    seconds = Number(header);
  }
  return Math.min(Math.max(Math.ceil((seconds ?? 1) * 1000), 0), MAX_RETRY_AFTER_MS);
}
