import { Controller, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { AchievementsService } from './achievements.service';
import { AchievementDefinitionsDto, IngestResultDoc, UnlockBatchDto, UpsertedDoc } from './dto/game-server.dto';

@ApiTags('game-server')
@Controller('game-server/achievements')
@ApiKeyAuth('game-server')
export class GameServerAchievementsController {
  constructor(private readonly achievements: AchievementsService) {}

  @Put()
  @ApiOperation({ summary: 'Create or replace achievement definitions by id' })
  @ApiInput(AchievementDefinitionsDto, 'body')
  @ApiEnvelope(200, 'Stored.', UpsertedDoc)
  @ApiErrors([400, 'Invalid definitions (or an id given twice); nothing stored.'])
  async define(@Input() input: AchievementDefinitionsDto): Promise<UpsertedDoc> {
    return { upserted: await this.achievements.define(input.achievements.map((item) => ({ ...item, hidden: item.hidden ?? false }))) };
  }

  @Post('unlocks')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report unlocks (1-1000, all or nothing)', description: 'Repeats are skipped; unlocks of players not seen yet are kept.' })
  @ApiInput(UnlockBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', IngestResultDoc)
  @ApiErrors([400, 'Invalid batch or an unknown achievement id; nothing stored.'])
  unlock(@Input() input: UnlockBatchDto): Promise<IngestResultDoc> {
    return this.achievements.unlock(input.unlocks);
  }
}
