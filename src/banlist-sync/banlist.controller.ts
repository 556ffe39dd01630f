import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../auth/auth.decorators';
import { Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { BanlistLookupService } from './banlist-lookup.service';
import { BanlistSyncStatusService, SyncStatus } from './banlist-sync-status.service';
import { BanlistSyncService } from './banlist-sync.service';
import type { BanView, BanlistUserView, SyncSummary } from './banlist.view';
import { BanIdDto, BanResponseDoc, BanlistUserDto, BanlistUserResponseDoc, SyncStatusDoc, SyncSummaryDoc } from './dto/banlist.dto';

const staleNote = 'Served from the mirror, which is refreshed periodically and may be out of date; see syncedAt.';

@ApiTags('users')
@Controller('users/banlist')
export class BanlistController {
  constructor(
    private readonly lookups: BanlistLookupService,
    private readonly sync: BanlistSyncService,
    private readonly syncStatus: BanlistSyncStatusService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Get ban-list user data by uuid', description: staleNote })
  @ApiInput(BanlistUserDto, 'query')
  @ApiEnvelope(200, 'The mirrored ban-list data of the player.', BanlistUserResponseDoc)
  @ApiErrors([400, 'uuid missing or not a game UUID.'], [404, 'The player was never synced.'])
  async byQuery(@Input() input: BanlistUserDto): Promise<{ data: BanlistUserView }> {
    return { data: await this.lookups.user(input.uuid) };
  }

  @Get('ban/:banId')
  @ApiOperation({ summary: 'Get a ban record by ban id', description: staleNote })
  @ApiInput(BanIdDto, 'query', { path: ['banId'] })
  @ApiEnvelope(200, 'The ban record.', BanResponseDoc)
  @ApiErrors([400, 'banId is not a positive integer.'], [404, 'No such ban in the mirror.'])
  async ban(@Input() input: BanIdDto): Promise<{ data: BanView }> {
    return { data: await this.lookups.ban(input.banId) };
  }

  @Get('sync/status')
  @ApiKeyAuth('operator', { consoleSession: true })
  @ApiOperation({ summary: "The last sync run's summary and the next scheduled run" })
  @ApiEnvelope(200, 'Sync status.', SyncStatusDoc)
  status(): Promise<SyncStatus> {
    return this.syncStatus.status();
  }

  @Post('sync')
  @HttpCode(200)
  @ApiKeyAuth('operator', { consoleSession: true })
  @ApiOperation({ summary: 'Run a ban-list sync now and return its summary' })
  @ApiEnvelope(200, 'The finished run.', SyncSummaryDoc)
  @ApiErrors([409, 'A sync is already in progress (on any instance).'], [503, 'No upstream is configured (BANLIST_SOURCE_URL).'])
  runNow(): Promise<SyncSummary> {
    return this.sync.run('api');
  }

  @Get(':uuid')
  @ApiOperation({ summary: 'Get ban-list user data by uuid (path)', description: staleNote })
  @ApiInput(BanlistUserDto, 'query', { path: ['uuid'] })
  @ApiEnvelope(200, 'The mirrored ban-list data of the player.', BanlistUserResponseDoc)
  @ApiErrors([400, 'Not a game UUID.'], [404, 'The player was never synced.'])
  async byPath(@Input() input: BanlistUserDto): Promise<{ data: BanlistUserView }> {
    return { data: await this.lookups.user(input.uuid) };
  }
}
