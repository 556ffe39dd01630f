import { Controller, Delete, Get, HttpCode, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiExcludeEndpoint, ApiExtraModels, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AuthCaller, ClubAuth, OperatorAuth, Session } from '../auth/auth.decorators';
import type { Caller } from '../auth/caller';
import type { ClubSession } from '../club/club-session';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { ClientIp, Input } from '../common/http/input.decorator';
import { UUID_PATTERN } from '../common/identifiers';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { CitiesQueryService } from './cities-query.service';
import { actorOf } from './city-audit.service';
import { CityCreateService, CreateCityResult } from './city-create.service';
import { Credentials, type RequestCredentials } from './city-credentials';
import { CityDecisionsService } from './city-decisions.service';
import { CityEditService, EditResult } from './city-edit.service';
import type { CityRequestView, CityView, HistoryEntryView, LegacyCityFields } from './city.view';
import {
  CityDoc,
  CityHistoryResponseDoc,
  ConflictListResponseDoc,
  CityListResponseDoc,
  CityPathResponseDoc,
  CityRequestListResponseDoc,
  CreateCityResponseDoc,
  EditCityResponseDoc,
  SingleCityDoc,
} from './dto/city-responses.dto';
import {
  ApprovalDto,
  CityHistoryDto,
  CityIdDto,
  CreateCityDto,
  EditCityDto,
  FindCitiesDto,
  FindCityByPathDto,
  ListRequestsDto,
  RejectDto,
  RequestIdDto,
} from './dto/city.dto';
import { Page, pageQuery } from './page';
import type { Conflict } from './city-rules.service';

const REQUEST_ID_PARAM = { name: 'requestId', description: 'Request id.', schema: { type: 'integer' as const, minimum: 1 } };

const operatorErrors: Array<[number, string]> = [
  [401, 'No credential, or an unknown API key or user token.'],
  [403, 'An API key without the operator scope, or the token of a non-admin.'],
];

@ApiTags('cities')
// Referenced by oneOf in the response documents, so registered here.
@ApiExtraModels(CityDoc, SingleCityDoc)
@Controller('cities')
export class CitiesController {
  constructor(
    private readonly queries: CitiesQueryService,
    private readonly creation: CityCreateService,
    private readonly decisions: CityDecisionsService,
    private readonly edits: CityEditService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Registered cities: all (ordered by id), or the one matching id and/or name' })
  @ApiInput(FindCitiesDto, 'query')
  @ApiEnvelope(200, 'An array without parameters; one city with id or name.', CityListResponseDoc)
  @ApiErrors([400, 'Invalid id.'], [404, 'No registered city matches id or name.'])
  @ApiResponse({ status: 304, description: 'The list is unchanged since the ETag given in If-None-Match.' })
  async find(@Input() input: FindCitiesDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (input.id === undefined && input.name === undefined) {
      // The full list is served pre-serialised, with ETag and gzip, hence the raw reply.
      (await this.queries.listResponse()).send(request, reply);
      return;
    }
    const data = await this.queries.findOne({ id: input.id !== undefined ? Number(input.id) : undefined, name: input.name });
    void reply.send({ data });
  }

  @Get('requests')
  @OperatorAuth()
  @ApiOperation({ summary: 'City requests, for operator tooling (default: pending), paged by id' })
  @ApiInput(ListRequestsDto, 'query')
  @ApiEnvelope(200, 'The requests, ordered by id.', CityRequestListResponseDoc)
  @ApiErrors([400, 'Invalid filter, limit or after.'], ...operatorErrors)
  requests(@Input() input: ListRequestsDto): Promise<Page<CityRequestView>> {
    const cityId = input.cityId !== undefined ? Number(input.cityId) : undefined;
    return this.queries.listRequests({ status: input.status, type: input.type, cityId }, pageQuery(input));
  }

  @Get('requests/:requestId/conflicts')
  @OperatorAuth()
  @ApiOperation({ summary: 'What approving a pending request now would run into (names, kana, region name, region)' })
  @ApiParam(REQUEST_ID_PARAM)
  @ApiEnvelope(200, 'The conflicts; empty when the request could be approved now.', ConflictListResponseDoc)
  @ApiErrors([400, 'Invalid request id.'], ...operatorErrors, [404, 'No pending request with that id.'])
  async conflicts(@Input() input: RequestIdDto): Promise<{ data: Conflict[] }> {
    return { data: await this.queries.conflicts(Number(input.requestId)) };
  }

  @Post('requests/:requestId/withdraw')
  @HttpCode(200)
  @ClubAuth()
  @ApiOperation({ summary: 'Withdraw your own pending request', description: 'It becomes rejected with rejectReason "withdrawn"; a withdrawn create frees its name and region.' })
  @ApiParam(REQUEST_ID_PARAM)
  @ApiEnvelope(200, 'Withdrawn.')
  @ApiErrors([400, 'Invalid request id.'], [403, 'The request was filed by another player.'], [404, 'No such request, or it is no longer pending.'])
  async withdraw(@Input() input: RequestIdDto, @Session() session: ClubSession): Promise<Record<string, never>> {
    await this.decisions.withdraw(Number(input.requestId), session);
    return {};
  }

  @Post('create')
  @ApiOperation({
    summary: 'Request a new city (or register it at once with force=true and an operator key)',
    description:
      'usertoken is a user key from /getuserkey (spent on success, unspent on any refusal) or a club user token. The requester becomes the city administrator.',
  })
  @ApiInput(CreateCityDto, 'body')
  @ApiEnvelope(201, 'Request filed (pending) or city registered (approved).', CreateCityResponseDoc)
  @ApiErrors(
    [400, 'Invalid parameters (details name them), or captcha_failed.'],
    [401, 'User key or token missing, invalid, expired or spent; or force without an API key.'],
    [403, 'force=true with an API key lacking the operator scope.'],
    [409, 'Name or kana taken, region overlapping, or the per-administrator limit reached.'],
    [503, 'The CAPTCHA provider or the database is unreachable.'],
  )
  create(@Input() input: CreateCityDto, @Credentials() credentials: RequestCredentials, @ClientIp() ip: string): Promise<CreateCityResult> {
    return this.creation.create(input, credentials, ip);
  }

  @Post('approval/:type/:id')
  @HttpCode(200)
  @OperatorAuth()
  @ApiOperation({ summary: 'Approve and apply the pending request of a type for a city' })
  @ApiInput(ApprovalDto, 'body', { path: ['type', 'id'] })
  @ApiEnvelope(200, 'Applied.')
  @ApiErrors([400, 'Invalid type or city id.'], ...operatorErrors, [404, 'No pending request of that type.'], [409, 'A conflict arose meanwhile; the request stays pending.'])
  async approve(@Input() input: ApprovalDto, @AuthCaller() caller: Caller): Promise<Record<string, never>> {
    await this.decisions.approve(input.type, Number(input.id), actorOf(caller));
    return {};
  }

  @Post('reject/:type/:requestId')
  @HttpCode(200)
  @OperatorAuth()
  @ApiOperation({ summary: 'Reject a pending request; a rejected create frees its name and region' })
  @ApiInput(RejectDto, 'body', { path: ['type', 'requestId'] })
  @ApiEnvelope(200, 'Rejected.')
  @ApiErrors([400, 'Invalid type or request id.'], ...operatorErrors, [404, 'No pending request with that id and type.'])
  async reject(@Input() input: RejectDto, @AuthCaller() caller: Caller): Promise<Record<string, never>> {
    await this.decisions.reject(input.type, Number(input.requestId), input.reason || null, actorOf(caller));
    return {};
  }

  @Patch('edit/:id')
  @ClubAuth()
  @ApiOperation({
    summary: 'Update a city',
    description:
      "The administrator files a request (region for corners, else update); a club admin editing another's city applies it at once. corners (with count, reason) come alone.",
  })
  @ApiInput(EditCityDto, 'body', { path: ['id'] })
  @ApiEnvelope(200, 'Request filed, or change applied.', EditCityResponseDoc)
  @ApiErrors(
    [400, 'Invalid parameters, or captcha_failed.'],
    [403, 'Neither the administrator nor a club admin.'],
    [404, 'No registered city with that id.'],
    [409, 'A pending request of that type exists, the name is taken, or the region overlaps.'],
  )
  edit(@Session() session: ClubSession, @Input() input: EditCityDto, @ClientIp() ip: string): Promise<EditResult> {
    return this.edits.edit(session, input, ip);
  }

  @Get(':id/history')
  @OperatorAuth()
  @ApiOperation({ summary: "A city's audit trail: every state change, oldest first, paged by id" })
  @ApiInput(CityHistoryDto, 'query', { path: ['id'] })
  @ApiEnvelope(200, 'The trail.', CityHistoryResponseDoc)
  @ApiErrors([400, 'Invalid id, limit or after.'], ...operatorErrors, [404, 'No such city.'])
  history(@Input() input: CityHistoryDto): Promise<Page<HistoryEntryView>> {
    return this.queries.history(Number(input.id), pageQuery(input));
  }

  @Get('create')
  @ApiExcludeEndpoint()
  createIsPostOnly(): never {
    throw methodNotAllowed('POST');
  }

  @Get(':id')
  @ApiOperation({ summary: 'A city by id (digits), or the cities of an administrator (uuid)', description: 'A query id or name wins over the path.' })
  @ApiInput(FindCityByPathDto, 'query', { path: ['id'] })
  @ApiEnvelope(200, 'One city for an id; an array (possibly empty) for a uuid.', CityPathResponseDoc)
  @ApiErrors([400, 'Neither a city id nor a uuid.'], [404, 'No registered city with that id.'])
  async findByPath(@Input() input: FindCityByPathDto): Promise<{ data: (CityView & LegacyCityFields) | CityView[] }> {
    if (UUID_PATTERN.test(input.id)) {
      return { data: await this.queries.byOwner(input.id) };
    }
    return { data: await this.queries.findOne({ id: Number(input.id), name: input.name }) };
  }

  @Delete('create')
  @ApiExcludeEndpoint()
  deleteCreate(): never {
    throw methodNotAllowed('POST');
  }

  @Delete('requests')
  @ApiExcludeEndpoint()
  deleteRequests(): never {
    throw methodNotAllowed('GET');
  }

  @Delete(':id')
  @OperatorAuth()
  @ApiOperation({ summary: 'Delete a registered city; its pending requests are rejected, its name and region freed' })
  @ApiInput(CityIdDto, 'query', { path: ['id'] })
  @ApiEnvelope(200, 'Deleted.')
  @ApiErrors([400, 'Invalid city id.'], ...operatorErrors, [404, 'No registered city with that id (pending creates are rejected, not deleted).'])
  async delete(@Input() input: CityIdDto, @AuthCaller() caller: Caller): Promise<Record<string, never>> {
    await this.decisions.delete(Number(input.id), actorOf(caller));
    return {};
  }
}

/** Fixed routes are never read as an id: a wrong method on them is a 405, as for any known path. */
function methodNotAllowed(allow: string): ApiError {
  return new ApiError(405, 'method_not_allowed', msg('http.useMethod', { allow }), undefined, { Allow: allow });
}
