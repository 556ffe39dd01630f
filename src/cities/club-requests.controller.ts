import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubAuth, Session } from '../auth/auth.decorators';
import type { ClubSession } from '../club/club-session';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { CitiesQueryService } from './cities-query.service';
import type { CityRequestView } from './city.view';
import { CityRequestListResponseDoc } from './dto/city-responses.dto';
import { PageDto } from './dto/city.dto';
import { Page, pageQuery } from './page';

/** A club account's own city requests (served by the cities module, which owns requests). */
@ApiTags('club')
@Controller('club')
export class ClubRequestsController {
  constructor(private readonly queries: CitiesQueryService) {}

  @Get('@me/requests')
  @ClubAuth()
  @ApiOperation({ summary: "The city requests this account's player filed, every status, paged by id" })
  @ApiInput(PageDto, 'query')
  @ApiEnvelope(200, 'The requests, oldest first.', CityRequestListResponseDoc)
  @ApiErrors([400, 'Invalid limit or after.'])
  requests(@Session() session: ClubSession, @Input() input: PageDto): Promise<Page<CityRequestView>> {
    return this.queries.requestsOf(session.playerUuid, pageQuery(input));
  }
}
