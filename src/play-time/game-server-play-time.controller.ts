import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, AuthCaller } from '../auth/auth.decorators';
import type { Caller } from '../auth/caller';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { IngestResultDoc } from '../users/dto/game-server.dto';
import { AwayService } from './away.service';
import { AwayBatchDto, SessionBatchDto } from './dto/play-time.dto';
import { PlaySessionsService } from './play-sessions.service';

/** Who reports a session: the API key, and the server name when one key serves several. */
function reporterOf(caller: Caller | undefined, server: string | undefined): string {
  const key = caller?.kind === 'apikey' ? String(caller.key.id) : '-';
  return `${key}/${server ?? ''}`;
}

@ApiTags('game-server')
@Controller('game-server')
@ApiKeyAuth('game-server')
export class GameServerPlayTimeController {
  constructor(
    private readonly sessions: PlaySessionsService,
    private readonly away: AwayService,
  ) {}

  @Post('sessions')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Report play sessions: joins, activity and quits (1-1000, one transaction, idempotent)',
    description:
      'Each report names its session by the server\'s own id. A report that moves a session on (a new session, a later activity, the quit) is accepted; one that changes nothing (a re-send, an older report, a session already ended) is skipped.',
  })
  @ApiInput(SessionBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', IngestResultDoc)
  @ApiErrors([400, 'Invalid batch; nothing stored.'], [409, 'A session id already names another player or start time; nothing stored.'])
  reportSessions(@Input() input: SessionBatchDto, @AuthCaller() caller: Caller | undefined): Promise<IngestResultDoc> {
    return this.sessions.report({ reporter: reporterOf(caller, input.server), serverStartedAt: input.serverStartedAt, sessions: input.sessions });
  }

  @Post('away-time')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report away-from-keyboard time (1-1000, one transaction, idempotent)', description: 'A report whose id was stored before is skipped.' })
  @ApiInput(AwayBatchDto, 'body')
  @ApiEnvelope(200, 'Stored.', IngestResultDoc)
  @ApiErrors([400, 'Invalid batch; nothing stored.'])
  reportAway(@Input() input: AwayBatchDto): Promise<IngestResultDoc> {
    return this.away.report(input.away);
  }
}
