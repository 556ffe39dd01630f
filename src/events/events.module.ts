import { Module } from '@nestjs/common';
import { TelemetryModule } from '../common/telemetry/telemetry.module';
import { EventNotifier } from './event-notifier';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { eventsRetentionJobProvider, EventsRetention } from './events-retention';
import { EventsService } from './events.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { HostResolver, WebhookSender } from './webhook-sender';
import { webhookWorkerProvider } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * The outbox (docs/events-and-webhooks.md) (EventsService.record, used by the cities workflow and the ban-list
 * sync inside their transactions), the feed, webhooks and their delivery. The features that record
 * events import this module. The worker and the retention job exist only where a scheduler is
 * loaded (the HTTP server, not the CLI).
 */
@Module({
  imports: [TelemetryModule],
  controllers: [EventsController, WebhooksController],
  providers: [
    EventsRepository,
    WebhooksRepository,
    WebhookDeliveriesRepository,
    EventNotifier,
    EventsService,
    HostResolver,
    WebhookSender,
    WebhookDeliveryService,
    WebhooksService,
    EventsRetention,
    webhookWorkerProvider,
    eventsRetentionJobProvider,
  ],
  exports: [EventsService, WebhooksService, EventsRetention],
})
export class EventsModule {}
