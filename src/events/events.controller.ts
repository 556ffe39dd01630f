import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, AuthCaller } from '../auth/auth.decorators';
import type { Caller } from '../auth/caller';
import { ClientIp, Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { EventFeedDoc, EventFeedDto } from './dto/events.dto';
import { EventsService, FeedPage } from './events.service';

@ApiTags('events')
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiKeyAuth(['operator', 'game-server'])
  @ApiOperation({
    summary: 'The change feed: events after an id, oldest first, with optional long-poll',
    description:
      'Never skips an event: ids follow commit order. With wait, answers as soon as an event exists, empty after wait seconds, or at once when the server shuts down. Keep `next` and pass it as `after`.',
  })
  @ApiInput(EventFeedDto, 'query')
  @ApiEnvelope(200, 'Events (possibly none) and the cursor to continue from.', EventFeedDoc)
  @ApiErrors(
    [400, 'after, limit or wait out of range.'],
    [429, 'This API key or address already has its share of long-polls waiting on this instance (EVENTS_MAX_WAITERS_PER_KEY, EVENTS_MAX_WAITERS_PER_ADDRESS); Retry-After says when to ask again.'],
    [503, 'Every long-poll place of this instance is taken (EVENTS_MAX_WAITERS); Retry-After: 1.'],
  )
  feed(@Input() input: EventFeedDto, @AuthCaller() caller: Caller | undefined, @ClientIp() ip: string): Promise<FeedPage> {
    return this.events.feed(input.after ?? 0, input.limit ?? 100, input.wait ?? 0, { apiKey: waiterKey(caller), address: ip });
  }
}

/** The API key a long-poll's place counts against (the guard has checked one is there). */
function waiterKey(caller: Caller | undefined): string {
  return caller?.kind === 'apikey' ? `key-${caller.key.id}` : 'unknown';
}
