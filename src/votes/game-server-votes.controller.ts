import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { IngestResultDoc } from '../users/dto/game-server.dto';
import { LoginTextBatchDto, VoteBatchDto } from './dto/votes.dto';
import { VotesService } from './votes.service';

@ApiTags('game-server')
@Controller('game-server')
@ApiKeyAuth('game-server')
export class GameServerVotesController {
  constructor(private readonly votes: VotesService) {}

  @Post('votes')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report votes (1-1000, one transaction, idempotent by id)', description: 'Each vote counts once on its site; a re-sent id is skipped. A site outside VOTE_SITES is a 400.' })
  @ApiInput(VoteBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', IngestResultDoc)
  @ApiErrors([400, 'Invalid batch (details name the element); nothing stored.'])
  async reportVotes(@Input() input: VoteBatchDto): Promise<IngestResultDoc> {
    const { accepted, skipped } = await this.votes.ingestVotes(input.votes);
    return { accepted, skipped };
  }

  @Post('login-texts')
  @HttpCode(200)
  @ApiOperation({ summary: "Report players' login texts (1-1000, one transaction, idempotent by id)", description: 'The latest change of a player wins; null or blank removes the text.' })
  @ApiInput(LoginTextBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', IngestResultDoc)
  @ApiErrors([400, 'Invalid batch (details name the element); nothing stored.'])
  async reportLoginTexts(@Input() input: LoginTextBatchDto): Promise<IngestResultDoc> {
    const { accepted, skipped } = await this.votes.ingestLoginTexts(input.loginTexts);
    return { accepted, skipped };
  }
}
