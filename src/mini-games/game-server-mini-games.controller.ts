import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { PeriodmatchBatchDto, ResultIngestDoc } from './dto/mini-games.dto';
import { MiniGamesService } from './mini-games.service';

@ApiTags('game-server')
@Controller('game-server/mini-games')
@ApiKeyAuth('game-server')
export class GameServerMiniGamesController {
  constructor(private readonly miniGames: MiniGamesService) {}

  @Post('periodmatch')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report periodmatch results (1-1000, one transaction, idempotent by id)' })
  @ApiInput(PeriodmatchBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', ResultIngestDoc)
  @ApiErrors([400, 'Invalid batch; nothing stored.'])
  report(@Input() input: PeriodmatchBatchDto): Promise<ResultIngestDoc> {
    return this.miniGames.report(input.results.map(({ id, ...result }) => ({ ...result, sourceId: id, status: true })));
  }
}
