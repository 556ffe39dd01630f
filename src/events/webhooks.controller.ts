import { Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { ApiError, detail } from '../common/errors/api-error';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput, ApiPathParam } from '../common/openapi/api-docs.decorators';
import {
  CreatedWebhookDoc,
  CreateWebhookDto,
  DeliveryAttemptResponseDoc,
  DeliveryLogDoc,
  DeliveryPathDto,
  UpdateWebhookDto,
  WebhookIdDto,
  WebhookListDoc,
  WebhookResponseDoc,
} from './dto/webhooks.dto';
import { DeliveryAttemptView, WebhooksService, WebhookView } from './webhooks.service';

@ApiTags('webhooks')
@Controller('webhooks')
@ApiKeyAuth('operator')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiOperation({ summary: 'Register a webhook; the signing secret is shown once', description: 'It receives events recorded after its creation.' })
  @ApiInput(CreateWebhookDto, 'body')
  @ApiEnvelope(201, 'Created.', CreatedWebhookDoc)
  @ApiErrors([400, 'Invalid url (scheme, unresolvable, or a loopback/private/link-local address), events or format.'])
  create(@Input() input: CreateWebhookDto): Promise<{ data: WebhookView; secret: string }> {
    return this.webhooks.create({ url: input.url, events: input.events, format: input.format ?? 'json' });
  }

  @Get()
  @ApiOperation({ summary: 'List webhooks (URLs masked, never the secret)' })
  @ApiEnvelope(200, 'Every webhook.', WebhookListDoc)
  async list(): Promise<{ data: WebhookView[] }> {
    return { data: await this.webhooks.list() };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change active, events and/or url of a webhook' })
  @ApiPathParam('id', WebhookIdDto)
  @ApiInput(UpdateWebhookDto, 'body')
  @ApiEnvelope(200, 'The changed webhook.', WebhookResponseDoc)
  @ApiErrors([400, 'Nothing to change, or an invalid field.'], [404, 'No such webhook.'])
  async update(@Input() input: UpdateWebhookDto): Promise<{ data: WebhookView }> {
    if (input.active === undefined && input.events === undefined && input.url === undefined) {
      throw ApiError.badRequest('webhooks.nothingToChange', [detail('active', 'webhooks.nothingToChange.detail')]);
    }
    return { data: await this.webhooks.update(input.id, { active: input.active, events: input.events, url: input.url }) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a webhook with its delivery log' })
  @ApiPathParam('id', WebhookIdDto)
  @ApiEnvelope(200, 'Removed.')
  @ApiErrors([400, 'Invalid id.'], [404, 'No such webhook.'])
  async remove(@Input() input: WebhookIdDto): Promise<Record<string, never>> {
    await this.webhooks.remove(input.id);
    return {};
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a ping now, outside the queue', description: 'Answers 200 with the outcome of the attempt, whatever it was.' })
  @ApiPathParam('id', WebhookIdDto)
  @ApiEnvelope(200, 'The attempt.', DeliveryAttemptResponseDoc)
  @ApiErrors([400, 'Invalid id.'], [404, 'No such webhook.'])
  async test(@Input() input: WebhookIdDto): Promise<{ data: DeliveryAttemptView }> {
    return { data: await this.webhooks.test(input.id) };
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'The latest 100 delivery attempts, newest first' })
  @ApiPathParam('id', WebhookIdDto)
  @ApiEnvelope(200, 'The deliveries log.', DeliveryLogDoc)
  @ApiErrors([400, 'Invalid id.'], [404, 'No such webhook.'])
  async deliveries(@Input() input: WebhookIdDto): Promise<{ data: DeliveryAttemptView[] }> {
    return { data: await this.webhooks.deliveries(input.id) };
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a finished delivery again now (same delivery id)', description: 'Answers 200 with the outcome of the attempt, whatever it was.' })
  @ApiPathParam('id', WebhookIdDto)
  @ApiPathParam('deliveryId', DeliveryPathDto)
  @ApiEnvelope(200, 'The attempt.', DeliveryAttemptResponseDoc)
  @ApiErrors([400, 'Invalid id.'], [404, 'No such webhook or delivery, or its event is no longer kept.'], [409, 'The delivery is still queued.'])
  async redeliver(@Input() input: DeliveryPathDto): Promise<{ data: DeliveryAttemptView }> {
    return { data: await this.webhooks.redeliver(input.id, input.deliveryId) };
  }
}
