import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { UnitOfWork } from '../database/unit-of-work';
import { EventsRepository } from './events.repository';
import { AttemptView, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { isSuccess, OutgoingEvent, WebhookDeliveryService } from './webhook-delivery.service';
import { TargetRefused, WebhookSender } from './webhook-sender';
import { newWebhookSecret } from './webhook-signature';
import { maskUrl } from './webhook-url';
import { WebhookFormat, WebhookRecord, WebhooksRepository } from './webhooks.repository';

/** The webhook object (docs/events-and-webhooks.md, Webhooks). The secret and the full URL never leave again. */
export interface WebhookView {
  id: number;
  url: string;
  events: string[];
  format: WebhookFormat;
  active: boolean;
  createdAt: string;
  lastDeliveryAt: string | null;
  failing: boolean;
}

/** One attempt as the deliveries log and the test/redeliver answers show it (the repository's shape). */
export type DeliveryAttemptView = AttemptView;

function toWebhookView(webhook: WebhookRecord): WebhookView {
  return {
    id: webhook.id,
    url: maskUrl(webhook.url),
    events: webhook.events,
    format: webhook.format,
    active: webhook.active,
    createdAt: webhook.createdAt,
    lastDeliveryAt: webhook.lastDeliveryAt,
    failing: webhook.failing,
  };
}

/** Webhook management (HTTP and command line): create, list, change, remove, test, log, redeliver. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveryLog: WebhookDeliveriesRepository,
    private readonly events: EventsRepository,
    private readonly sender: WebhookSender,
    private readonly delivery: WebhookDeliveryService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(input: { url: string; events: string[]; format: WebhookFormat }): Promise<{ data: WebhookView; secret: string }> {
    await this.assertTarget(input.url);
    const secret = newWebhookSecret();
    // A new webhook starts after the latest committed event: it receives events recorded after its creation.
    const id = await this.unitOfWork.transaction(async (tx) =>
      this.webhooks.insert(tx, { ...input, secret, createdAt: new Date(), cursorEventId: await this.events.lastEventIdIn(tx) }),
    );
    return { data: toWebhookView(await this.get(id)), secret };
  }

  async list(): Promise<WebhookView[]> {
    return (await this.webhooks.webhooks()).map(toWebhookView);
  }

  async update(id: number, changes: { active?: boolean; events?: string[]; url?: string }): Promise<WebhookView> {
    await this.get(id);
    if (changes.url !== undefined) {
      await this.assertTarget(changes.url);
    }
    await this.unitOfWork.transaction((tx) => this.webhooks.update(tx, id, changes));
    return toWebhookView(await this.get(id));
  }

  async remove(id: number): Promise<void> {
    const removed = await this.unitOfWork.transaction(async (tx) => {
      await this.deliveryLog.deleteForWebhook(tx, id);
      return this.webhooks.delete(tx, id);
    });
    if (!removed) {
      throw ApiError.notFound(msg('webhooks.notFound', { id }));
    }
  }

  /** Sends a `ping` now, outside the queue; answers with the outcome whatever it was. */
  async test(id: number): Promise<DeliveryAttemptView> {
    const webhook = await this.get(id);
    return this.sendNow(webhook, randomUUID(), WebhookDeliveryService.ping(id), 1, true);
  }

  async deliveries(id: number): Promise<DeliveryAttemptView[]> {
    await this.get(id);
    return this.deliveryLog.attempts(id);
  }

  /** Sends a finished (delivered or failed) delivery again, now, with the same delivery id. */
  async redeliver(id: number, deliveryId: string): Promise<DeliveryAttemptView> {
    const webhook = await this.get(id);
    const delivery = await this.deliveryLog.delivery(id, deliveryId);
    if (!delivery) {
      throw ApiError.notFound(msg('webhooks.deliveryNotFound', { id, deliveryId }));
    }
    if (delivery.status === 'pending') {
      throw ApiError.conflict(msg('webhooks.deliveryQueued', { deliveryId }));
    }
    let event: OutgoingEvent | undefined;
    if (delivery.eventId === null) {
      event = WebhookDeliveryService.ping(id);
    } else {
      const eventId = delivery.eventId;
      event = await this.unitOfWork.transaction((tx) => this.events.eventById(tx, eventId));
    }
    if (!event) {
      throw ApiError.notFound(msg('webhooks.eventGone', { deliveryId }));
    }
    const attempt = (await this.unitOfWork.transaction((tx) => this.deliveryLog.lastAttemptNumber(tx, deliveryId))) + 1;
    return this.sendNow(webhook, deliveryId, event, attempt, false);
  }

  private async sendNow(webhook: WebhookRecord, deliveryId: string, event: OutgoingEvent, attempt: number, isNew: boolean): Promise<DeliveryAttemptView> {
    const result = await this.delivery.attempt(webhook, deliveryId, event);
    const at = new Date();
    const ok = isSuccess(result.statusCode);
    this.delivery.count(ok ? 'delivered' : 'failed');
    await this.unitOfWork.transaction(async (tx) => {
      if (isNew) {
        await this.deliveryLog.insertCompleted(tx, { deliveryId, webhookId: webhook.id, eventId: event.id, type: event.type, status: ok ? 'delivered' : 'failed', now: at });
      } else if (ok) {
        await this.deliveryLog.markDelivered(tx, deliveryId, at);
      }
      await this.deliveryLog.logAttempt(tx, { webhookId: webhook.id, deliveryId, eventId: event.id, attempt, ...result, at });
      await this.webhooks.recordDeliveryOutcome(tx, webhook.id, at, ok);
    });
    return { deliveryId, eventId: event.id, attempt, status: result.statusCode, error: result.error, durationMs: result.durationMs, at: at.toISOString() };
  }

  private async get(id: number): Promise<WebhookRecord> {
    const webhook = await this.webhooks.webhook(id);
    if (!webhook) {
      throw ApiError.notFound(msg('webhooks.notFound', { id }));
    }
    return webhook;
  }

  /** The SSRF guard at create and change: 400 naming `url`. */
  private async assertTarget(url: string): Promise<void> {
    try {
      await this.sender.target(url);
    } catch (error) {
      if (error instanceof TargetRefused) {
        throw ApiError.invalidField('url', error.text);
      }
      throw error;
    }
  }
}
