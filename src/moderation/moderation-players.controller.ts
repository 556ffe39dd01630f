import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OperatorAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { ModerationPlayerResponseDoc, PlayerSearchResponseDoc } from './dto/moderation-responses.dto';
import { PlayerUuidDto, SearchPlayersDto } from './dto/moderation.dto';
import { OPERATOR_ERRORS } from './moderation-errors';
import { type ModerationPlayerPage, ModerationPlayersService, type PlayerMatch } from './moderation-players.service';

@ApiTags('moderation')
@Controller('moderation/players')
@OperatorAuth()
export class ModerationPlayersController {
  constructor(private readonly players: ModerationPlayersService) {}

  @Get()
  @ApiOperation({ summary: 'Find players by the start of a game id, a uuid or a chat id (at most 20)' })
  @ApiInput(SearchPlayersDto, 'query')
  @ApiEnvelope(200, 'The matches, most recently seen first; none is an empty list.', PlayerSearchResponseDoc)
  @ApiErrors([400, 'q missing or longer than 64 characters.'], ...OPERATOR_ERRORS)
  async search(@Input() input: SearchPlayersDto): Promise<{ data: { items: PlayerMatch[] } }> {
    return { data: { items: await this.players.search(input.q) } };
  }

  @Get(':uuid')
  @ApiOperation({ summary: "A player's moderation page: logins, play time, chat accounts, ban list, records, cities" })
  @ApiInput(PlayerUuidDto, 'query', { path: ['uuid'] })
  @ApiEnvelope(200, 'The page.', ModerationPlayerResponseDoc)
  @ApiErrors([400, 'Not a uuid.'], ...OPERATOR_ERRORS, [404, 'No such player.'])
  async page(@Input() input: PlayerUuidDto): Promise<{ data: ModerationPlayerPage }> {
    return { data: await this.players.page(input.uuid) };
  }
}
