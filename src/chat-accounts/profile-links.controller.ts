import { Controller, Get, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubAuth, Session } from '../auth/auth.decorators';
import type { ClubSession } from '../club/club-session';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { ChatAccountsReader } from './chat-accounts.reader';
import { ChatAccountsService } from './chat-accounts.service';
import { ProfileLinksFieldsDto, ProfileLinksResponseDoc } from './dto/chat-bot.dto';
import type { ProfileLinks } from './profile-fields';

/** The signed-in player's own profile links (the account page, docs/console-and-maps.md). */
@ApiTags('club')
@Controller('club/@me/profile-links')
@ClubAuth()
export class ProfileLinksController {
  constructor(
    private readonly reader: ChatAccountsReader,
    private readonly accounts: ChatAccountsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Get your profile links (shown on the players site)' })
  @ApiEnvelope(200, 'The links; null where none is set.', ProfileLinksResponseDoc)
  async get(@Session() session: ClubSession): Promise<{ data: ProfileLinks }> {
    return { data: await this.reader.profileLinks(session.playerUuid) };
  }

  @Put()
  @ApiOperation({ summary: 'Set your profile links: a value sets, null removes, absent keeps' })
  @ApiInput(ProfileLinksFieldsDto, 'body')
  @ApiEnvelope(200, 'The links now stored.', ProfileLinksResponseDoc)
  @ApiErrors([400, 'A link is not of its form (the detail names it).'])
  async set(@Session() session: ClubSession, @Input() input: ProfileLinksFieldsDto): Promise<{ data: ProfileLinks }> {
    return { data: await this.accounts.setOwnLinks(session.playerUuid, input) };
  }
}
