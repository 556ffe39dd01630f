import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthCaller, OperatorAuth } from '../auth/auth.decorators';
import type { Caller } from '../auth/caller';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput, ApiPathParam } from '../common/openapi/api-docs.decorators';
import {
  EvidenceFileResponseDoc,
  EvidenceRemovedResponseDoc,
  NoteResponseDoc,
  RecordDetailResponseDoc,
  RecordListResponseDoc,
  RecordPageResponseDoc,
} from './dto/moderation-responses.dto';
import { EvidenceNameDto, LiftRecordDto, ListRecordsDto, RecordNoteDto, RecordRefDto } from './dto/moderation.dto';
import { ImageBody } from './image-body';
import { moderationActorOf } from './moderation-actor';
import { ModerationChangesService } from './moderation-changes.service';
import { OPERATOR_ERRORS } from './moderation-errors';
import type { RecordDetail, RecordSummary } from './moderation-record';
import { type EvidenceView, ModerationRecordsService, type RecordPage } from './moderation-records.service';
import type { RecordKind } from '../evidence/record-ref';

const RECORD_ERRORS: Array<[number, string]> = [[400, 'Unknown kind, or an invalid parameter.'], ...OPERATOR_ERRORS, [404, 'No record of that kind and id.']];

@ApiTags('moderation')
@Controller('moderation/records')
@OperatorAuth()
export class ModerationRecordsController {
  constructor(
    private readonly records: ModerationRecordsService,
    private readonly changes: ModerationChangesService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Records of every kind, newest first, filtered, a page at a time' })
  @ApiInput(ListRecordsDto, 'query')
  @ApiEnvelope(200, 'A page; nextCursor continues it.', RecordListResponseDoc)
  @ApiErrors([400, 'An invalid filter, limit or cursor.'], ...OPERATOR_ERRORS)
  async list(@Input() input: ListRecordsDto): Promise<{ data: { items: RecordSummary[]; nextCursor: string | null } }> {
    const data = await this.records.list({
      kinds: input.kind?.split(',') as RecordKind[] | undefined,
      state: input.state,
      issuer: input.issuer,
      player: input.player,
      from: input.from,
      to: input.to,
      cursor: input.cursor,
      limit: input.limit,
    });
    return { data };
  }

  @Get(':kind/:id')
  @ApiOperation({ summary: "A record's page: the record, its note, its evidence pictures and its history" })
  @ApiInput(RecordRefDto, 'query', { path: ['kind', 'id'] })
  @ApiEnvelope(200, 'The page.', RecordPageResponseDoc)
  @ApiErrors(...RECORD_ERRORS)
  async page(@Input() input: RecordRefDto): Promise<{ data: RecordPage }> {
    return { data: await this.records.page({ kind: input.kind, id: input.id }) };
  }

  @Post(':kind/:id/lift')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Lift a jail, chatban, eban or vban in force',
    description: "Records punishment.lifted, from which the game server learns it; the game server's later report of the same lift changes nothing.",
  })
  @ApiInput(LiftRecordDto, 'body', { path: ['kind', 'id'] })
  @ApiEnvelope(200, 'Lifted: the record.', RecordDetailResponseDoc)
  @ApiErrors(...RECORD_ERRORS, [409, 'Lifted already, or a gban/lban (lifted on the ban-list service).'])
  async lift(@Input() input: LiftRecordDto, @AuthCaller() caller: Caller): Promise<{ data: RecordDetail }> {
    return { data: await this.changes.lift({ kind: input.kind, id: input.id }, input.reason?.trim() || null, moderationActorOf(caller)) };
  }

  @Put(':kind/:id/note')
  @ApiOperation({ summary: "Set or clear the record's note" })
  @ApiInput(RecordNoteDto, 'body', { path: ['kind', 'id'] })
  @ApiEnvelope(200, 'The note now.', NoteResponseDoc)
  @ApiErrors(...RECORD_ERRORS)
  async note(@Input() input: RecordNoteDto, @AuthCaller() caller: Caller): Promise<{ data: { note: string | null } }> {
    return { data: await this.changes.setNote({ kind: input.kind, id: input.id }, input.note, moderationActorOf(caller)) };
  }

  @Post(':kind/:id/evidence')
  @ApiOperation({
    summary: 'Add an evidence picture (PNG, JPEG, WebP or GIF, up to 5 MiB)',
    description: 'The body is the picture itself; its type is read from its bytes, and its metadata is stripped. The one route whose body may exceed 1 MiB.',
  })
  @ApiPathParam('kind', RecordRefDto)
  @ApiPathParam('id', RecordRefDto)
  @ApiConsumes('image/png', 'image/jpeg', 'image/webp', 'image/gif')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiEnvelope(201, 'Stored.', EvidenceFileResponseDoc)
  @ApiErrors(...RECORD_ERRORS, [413, 'Over 5 MiB; nothing stored.'], [415, 'Not a PNG, JPEG, WebP or GIF (an SVG included); nothing stored.'])
  async addEvidence(@Input() input: RecordRefDto, @ImageBody() body: Buffer, @AuthCaller() caller: Caller): Promise<{ data: EvidenceView }> {
    return { data: await this.changes.addEvidence({ kind: input.kind, id: input.id }, body, moderationActorOf(caller)) };
  }

  @Delete(':kind/:id/evidence/:name')
  @ApiOperation({ summary: 'Remove an evidence picture of the record' })
  @ApiInput(EvidenceNameDto, 'query', { path: ['kind', 'id', 'name'] })
  @ApiEnvelope(200, 'Removed.', EvidenceRemovedResponseDoc)
  @ApiErrors(...RECORD_ERRORS.slice(0, -1), [404, 'No record of that kind and id, or no picture of that name on it.'])
  async removeEvidence(@Input() input: EvidenceNameDto, @AuthCaller() caller: Caller): Promise<{ data: { removed: true } }> {
    return { data: await this.changes.removeEvidence({ kind: input.kind, id: input.id }, input.name, moderationActorOf(caller)) };
  }
}
