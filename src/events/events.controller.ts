import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
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
  @ApiErrors([400, 'after, limit or wait out of range.'])
  feed(@Input() input: EventFeedDto): Promise<FeedPage> {
    return this.events.feed(input.after ?? 0, input.limit ?? 100, input.wait ?? 0);
  }
}
