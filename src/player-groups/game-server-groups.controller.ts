import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { IngestResultDoc } from '../users/dto/game-server.dto';
import { GroupChangeBatchDto } from './dto/player-groups.dto';
import { PlayerGroupsService } from './player-groups.service';

@ApiTags('game-server')
@Controller('game-server')
@ApiKeyAuth('game-server')
export class GameServerGroupsController {
  constructor(private readonly groups: PlayerGroupsService) {}

  @Post('group-changes')
  @HttpCode(200)
  @ApiOperation({ summary: "Report players' permission groups (1-1000, one transaction, idempotent by id)", description: 'The latest change of a player wins; a temporary group carries its end.' })
  @ApiInput(GroupChangeBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', IngestResultDoc)
  @ApiErrors([400, 'Invalid batch (details name the element); nothing stored.'])
  async reportGroupChanges(@Input() input: GroupChangeBatchDto): Promise<IngestResultDoc> {
    const { accepted, skipped } = await this.groups.ingest(input.groupChanges.map((change) => ({ ...change, expiresAt: change.expiresAt ?? null })));
    return { accepted, skipped };
  }
}
