import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { IssuedPunishmentBatchDto, LiftedPunishmentBatchDto, PunishmentIngestResultDoc } from './dto/punishments.dto';
import { PunishmentsService } from './punishments.service';

@ApiTags('game-server')
@Controller('game-server/punishments')
@ApiKeyAuth('game-server')
export class GameServerPunishmentsController {
  constructor(private readonly punishments: PunishmentsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Report punishments issued (1-1000, one transaction, idempotent by id and kind)', description: 'Each new one records a punishment.issued event.' })
  @ApiInput(IssuedPunishmentBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', PunishmentIngestResultDoc)
  @ApiErrors([400, 'Invalid batch (or a testment on a punishment other than jail); nothing stored.'])
  issue(@Input() input: IssuedPunishmentBatchDto): Promise<PunishmentIngestResultDoc> {
    input.punishments.forEach((item, index) => {
      if (item.testment !== undefined && item.kind !== 'jail') {
        throw ApiError.invalidField(`punishments.${index}.testment`, msg('punishments.testmentJailOnly', { field: `punishments.${index}.testment` }));
      }
    });
    return this.punishments.issue(input.punishments.map((item) => ({ ...item, testment: item.testment ?? null })));
  }

  @Post('lifts')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report punishments lifted (1-1000, one transaction)', description: "A lift of a punishment lifted already records no second punishment.lifted event; when an operator lifted it, the report is kept as that lift's confirmation (liftConfirmedAt)." })
  @ApiInput(LiftedPunishmentBatchDto, 'body')
  @ApiEnvelope(200, 'Applied.', PunishmentIngestResultDoc)
  @ApiErrors([400, 'Invalid batch, or a punishment that is not stored (named); nothing changed.'])
  lift(@Input() input: LiftedPunishmentBatchDto): Promise<PunishmentIngestResultDoc> {
    input.lifts.forEach((item, index) => {
      if ((item.id === undefined) === (item.punishmentId === undefined)) {
        throw ApiError.invalidField(`lifts.${index}.id`, msg('punishments.liftTarget', { field: `lifts.${index}` }));
      }
    });
    return this.punishments.lift(input.lifts);
  }
}
