import { Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { IssueUserKeyDto } from './dto/issue-user-key.dto';
import { UserKeysService } from './user-keys.service';

class UserKeyResponseDoc {
  @ApiProperty({ description: 'The user key to show the player (10 letters, case-sensitive, single use).', example: 'AbCdEfGhIj' })
  userkey: string;

  @ApiProperty({ example: '2026-11-23T03:04:05.000Z' })
  expiresAt: string;
}

@ApiTags('game-server')
@Controller('game-server/userkeys')
export class GameServerUserKeysController {
  constructor(private readonly userKeys: UserKeysService) {}

  @Post()
  @ApiKeyAuth('game-server')
  @ApiOperation({ summary: 'Issue a user key for a player (what /getuserkey shows in game)', description: 'Replaces any older key of the player.' })
  @ApiInput(IssueUserKeyDto, 'body')
  @ApiEnvelope(201, 'The new key.', UserKeyResponseDoc)
  @ApiErrors([400, 'Invalid uuid or mcid.'])
  issue(@Input() input: IssueUserKeyDto): Promise<{ userkey: string; expiresAt: Date }> {
    return this.userKeys.issue(input.uuid, input.mcid);
  }
}
