import { Controller, Delete, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput, ApiPathParam } from '../common/openapi/api-docs.decorators';
import { ChatLinksService, ChatLinkView } from './chat-links.service';
import { ChatLinkDoc, ChatLinkDto, IngestResultDoc, LoginBatchDto, PlayerPathDto } from './dto/game-server.dto';
import { LoginsService } from './logins.service';

@ApiTags('game-server')
@Controller('game-server')
@ApiKeyAuth('game-server')
export class GameServerPlayersController {
  constructor(
    private readonly logins: LoginsService,
    private readonly chatLinks: ChatLinksService,
  ) {}

  @Post('logins')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report logins (1-1000, one transaction, idempotent)', description: 'Records before DATA_CUTOFF and exact repeats (same uuid and time) are skipped.' })
  @ApiInput(LoginBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', IngestResultDoc)
  @ApiErrors([400, 'Invalid batch; nothing stored.'])
  async reportLogins(@Input() input: LoginBatchDto): Promise<IngestResultDoc> {
    const { accepted, skipped } = await this.logins.ingest(input.logins.map((login) => ({ ...login, permission: login.permission ?? null })));
    return { accepted, skipped };
  }

  @Put('chat-links/:uuid')
  @ApiOperation({ summary: "Link a player's chat account" })
  @ApiInput(ChatLinkDto, 'body', { path: ['uuid'] })
  @ApiEnvelope(200, 'Linked.', ChatLinkDoc)
  @ApiErrors([400, 'Invalid uuid or chatid.'], [404, 'Unknown player.'], [409, 'The chat id is linked to another player.'])
  link(@Input() input: ChatLinkDto): Promise<ChatLinkView> {
    return this.chatLinks.link(input.uuid, input.chatid);
  }

  @Delete('chat-links/:uuid')
  @ApiOperation({ summary: "Remove a player's chat link (no link: nothing to do)" })
  @ApiPathParam('uuid', PlayerPathDto, 'Game UUID with hyphens.')
  @ApiEnvelope(200, 'Unlinked.', ChatLinkDoc)
  @ApiErrors([400, 'Invalid uuid.'], [404, 'Unknown player.'])
  unlink(@Input() input: PlayerPathDto): Promise<ChatLinkView> {
    return this.chatLinks.unlink(input.uuid);
  }
}
