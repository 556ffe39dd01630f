import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { UUID_PATTERN } from '../../common/identifiers';
import { OptionalField, ToBool, ToInt, Transformed, Trim } from '../../common/validation/transforms';
import { rule } from '../../common/validation/validation.pipe';
import { EVENT_TYPES } from '../event.types';


/** A list, a JSON-encoded list or a comma-separated string (form bodies, docs/api.md, Requests and responses); duplicates dropped. */
const ToEventList = (): PropertyDecorator =>
  Transformed(({ value }: { value: unknown }) => {
    let list: unknown = value;
    if (typeof value === 'string') {
      const text = value.trim();
      try {
        list = text.startsWith('[') ? (JSON.parse(text) as unknown) : text.split(',').map((part) => part.trim());
      } catch {
        return value;
      }
    }
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
      return list;
    }
    // "*" means every type: alone it stays, beside others it swallows them.
    return list.includes('*') ? ['*'] : [...new Set(list)];
  });

/** `["*"]` alone, or known types only. */
const ValidEvents = (): PropertyDecorator =>
  Matches(new RegExp(`^(${['\\*', ...EVENT_TYPES.map((type) => type.replace(/\./g, '\\.'))].join('|')})$`), rule('validation.eventTypes', { each: true }));

export class CreateWebhookDto {
  @ApiProperty({ description: 'http(s) URL receiving POSTs; must resolve to a public address unless WEBHOOK_ALLOW_PRIVATE=true.', example: 'https://example.org/hooks/community' })
  @Trim()
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiProperty({ type: [String], description: 'Event types to receive, or ["*"] for all. A JSON list or a comma-separated string in form bodies.', example: ['city.request.created', 'city.request.approved'] })
  @ToEventList()
  @IsArray(rule('validation.eventTypes'))
  @ArrayMinSize(1, rule('validation.eventTypes'))
  @ArrayMaxSize(EVENT_TYPES.length + 1, rule('validation.eventTypes'))
  @ValidEvents()
  events: string[];

  @ApiProperty({ required: false, enum: ['json', 'discord'], description: 'json (default): the signed event; discord: a Japanese Discord message.' })
  @OptionalField()
  @IsIn(['json', 'discord'])
  format?: 'json' | 'discord';
}

export class WebhookIdDto {
  @ApiProperty({ description: 'Webhook id.', example: 1 })
  @ToInt()
  @IsInt(rule('validation.positiveInteger'))
  @Min(1, rule('validation.positiveInteger'))
  @Max(2_147_483_647, rule('validation.positiveInteger'))
  id: number;
}

export class UpdateWebhookDto extends WebhookIdDto {
  @ApiProperty({ required: false, description: 'false pauses deliveries (events keep queuing for it); true resumes.' })
  @OptionalField()
  @ToBool()
  @IsBoolean()
  active?: boolean;

  @ApiProperty({ required: false, type: [String], description: 'New list of event types, or ["*"].' })
  @OptionalField()
  @ToEventList()
  @IsArray(rule('validation.eventTypes'))
  @ArrayMinSize(1, rule('validation.eventTypes'))
  @ArrayMaxSize(EVENT_TYPES.length + 1, rule('validation.eventTypes'))
  @ValidEvents()
  events?: string[];

  @ApiProperty({ required: false, description: 'New target URL (checked like on create).' })
  @OptionalField()
  @Trim()
  @IsString()
  @MaxLength(2048)
  url?: string;
}

export class DeliveryPathDto extends WebhookIdDto {
  @ApiProperty({ description: 'Delivery id (the X-Community-Delivery header).', example: '6f1c2a4e-1d2b-4c3d-9e8f-0a1b2c3d4e5f' })
  @IsString()
  @Matches(UUID_PATTERN, rule('validation.deliveryId'))
  deliveryId: string;
}

export class WebhookDoc {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ description: 'Scheme, host and port; path and query masked.', example: 'https://discord.com/…' })
  url: string;

  @ApiProperty({ type: [String], example: ['*'] })
  events: string[];

  @ApiProperty({ enum: ['json', 'discord'] })
  format: string;

  @ApiProperty()
  active: boolean;

  @ApiProperty({ example: '2026-11-22T03:04:05.000Z' })
  createdAt: string;

  @ApiProperty({ nullable: true, type: String, description: 'Time of the latest attempt.' })
  lastDeliveryAt: string | null;

  @ApiProperty({ description: 'The latest attempt failed.' })
  failing: boolean;
}

export class WebhookResponseDoc {
  @ApiProperty({ type: WebhookDoc })
  data: WebhookDoc;
}

export class CreatedWebhookDoc extends WebhookResponseDoc {
  @ApiProperty({ description: 'The signing secret, shown this once (at least 32 characters).', example: 'whsec_…' })
  secret: string;
}

export class WebhookListDoc {
  @ApiProperty({ type: [WebhookDoc] })
  data: WebhookDoc[];
}

export class DeliveryAttemptDoc {
  @ApiProperty({ description: 'Same on every retry of a delivery (X-Community-Delivery).' })
  deliveryId: string;

  @ApiProperty({ nullable: true, type: Number, description: 'null for a test ping.' })
  eventId: number | null;

  @ApiProperty({ example: 1 })
  attempt: number;

  @ApiProperty({ nullable: true, type: Number, description: 'HTTP status of the answer; null when there was none (see error).' })
  status: number | null;

  @ApiProperty({ nullable: true, type: String, description: 'Why there was no answer (refused, timeout, blocked address).' })
  error: string | null;

  @ApiProperty({ example: 42 })
  durationMs: number;

  @ApiProperty({ example: '2026-11-22T03:04:05.000Z' })
  at: string;
}

export class DeliveryAttemptResponseDoc {
  @ApiProperty({ type: DeliveryAttemptDoc })
  data: DeliveryAttemptDoc;
}

export class DeliveryLogDoc {
  @ApiProperty({ type: [DeliveryAttemptDoc], description: 'The latest 100 attempts, newest first.' })
  data: DeliveryAttemptDoc[];
}
