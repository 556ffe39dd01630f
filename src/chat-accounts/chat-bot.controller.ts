import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { ChatAccountsService, IngestCounts } from './chat-accounts.service';
import { ChatAccountBatchDto, ChatIngestResultDoc, ProfileLinksBatchDto, SecondAccountBatchDto } from './dto/chat-bot.dto';

const invalidBatch: [number, string] = [400, 'Invalid batch (the detail names the element, e.g. accounts.3.chatid); nothing stored.'];

/** What the community's chat bot reports (docs/game-server.md, "Chat bot"). */
@ApiTags('chat-bot')
@Controller('chat-bot')
@ApiKeyAuth('chat-bot')
export class ChatBotController {
  constructor(private readonly accounts: ChatAccountsService) {}

  @Post('accounts')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report chat accounts: name, discriminator, avatar (1-1000, one transaction, idempotent by id)', description: 'The latest report of a chat id (by reportedAt) is the one served.' })
  @ApiInput(ChatAccountBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', ChatIngestResultDoc)
  @ApiErrors(invalidBatch)
  reportAccounts(@Input() input: ChatAccountBatchDto): Promise<IngestCounts> {
    return this.accounts.reportAccounts(input.accounts);
  }

  @Post('second-accounts')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report second chat accounts registered to a main account (1-1000, one transaction, idempotent by id)' })
  @ApiInput(SecondAccountBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', ChatIngestResultDoc)
  @ApiErrors(invalidBatch)
  reportSecondAccounts(@Input() input: SecondAccountBatchDto): Promise<IngestCounts> {
    return this.accounts.reportSecondAccounts(input.secondAccounts);
  }

  @Post('profile-links')
  @HttpCode(200)
  @ApiOperation({ summary: "Change players' profile links: Twitter id, GitHub login, home page (1-1000, in order, one transaction, idempotent by id)" })
  @ApiInput(ProfileLinksBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', ChatIngestResultDoc)
  @ApiErrors(invalidBatch)
  reportProfileLinks(@Input() input: ProfileLinksBatchDto): Promise<IngestCounts> {
    return this.accounts.reportProfileLinks(input.links);
  }
}
