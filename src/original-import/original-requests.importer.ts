import { Injectable } from '@nestjs/common';
import { DataVersions } from '../database/data-versions';
import type { Transaction } from '../database/unit-of-work';
import { CitiesRepository } from '../cities/cities.repository';
import type { CityRecord, NewCityRequest } from '../cities/city.records';
import { CITIES_LOCK } from '../cities/city-lock';
import { nameKey } from '../cities/city-name';
import { pendingKeyOf, RequestedChanges, RequestStatus, RequestType } from '../cities/city-request.entity';
import { CityRequestsRepository } from '../cities/city-requests.repository';
import { blockCount, boundingBox } from '../cities/geometry';
import { PlayersRepository } from '../players/players.repository';
import type { Run } from './original-cities.importer';
import { OriginalImportRepository } from './original-import.repository';
import { inTransactions } from './target-session';
import { cornersOf, sourceIdOf, gameIdOf, instantOf, integerOf, optionalText, requestStatusOf, SourceRow, text, UnreadableRow, uuidOf } from './original-mapping';

type RequestTable = 'cities_new_waiting' | 'cities_corners_waiting' | 'cities_other_waiting';

const TABLES: ReadonlyArray<{ table: RequestTable; type: RequestType; columns: string[] }> = [
  {
    table: 'cities_new_waiting',
    type: 'create',
    columns: ['name', 'namekana', 'regionname', 'player', 'uuid', 'summary', 'name_origin', 'corners', 'reason', 'remarks', 'status', 'city_id', 'created_at'],
  },
  { table: 'cities_corners_waiting', type: 'region', columns: ['cities_id', 'corners_new', 'status', 'created_at'] },
  {
    table: 'cities_other_waiting',
    type: 'update',
    columns: ['cities_id', 'name_new', 'namekana_new', 'regionname_new', 'summary_new', 'name_origin_new', 'status', 'created_at'],
  },
];

/** What an original request row says, read and checked. */
interface SourceRequest {
  id: number;
  status: RequestStatus;
  /** The city it is about (create: the city it made, once applied). */
  cityId: number | null;
  changes: RequestedChanges;
  createdAt: Date;
  remarks: string | null;
  /** create: the row's player. */
  requester?: { uuid: string; mcid: string | null };
}

function withoutNulls(fields: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== null));
}

/** The three request tables → create, region and update requests (docs/moving-from-original.md). */
@Injectable()
export class OriginalRequestsImporter {
  constructor(
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
    private readonly players: PlayersRepository,
    private readonly imports: OriginalImportRepository,
    private readonly versions: DataVersions,
  ) {}

  async import(run: Run, onProgress: (table: string, rows: number) => void): Promise<void> {
    for (const { table, type, columns } of TABLES) {
      if (!run.source.hasTable(table)) {
        continue;
      }
      run.report.counts(table);
      let rows = 0;
      for await (const page of run.source.pages(table, columns)) {
        const requesters = new Map<SourceRow, string | null>();
        if (type === 'create') {
          for (const row of page) {
            requesters.set(row, text(row.uuid) ?? (optionalText(row.player) === null ? null : await run.source.uuidOfNewestLogin(optionalText(row.player) ?? '')));
          }
        }
        await inTransactions(
          run.target,
          page,
          async (tx, chunk) => {
            let written = false;
            for (const row of chunk) {
              written = (await this.importRow(run, tx, table, type, row, requesters.get(row) ?? null)) || written;
            }
            if (written) {
              await this.versions.bump(tx, 'cities');
              await this.versions.bump(tx, 'players');
            }
          },
          { lock: CITIES_LOCK },
        );
        rows += page.length;
        onProgress(table, rows);
      }
    }
  }

  private async importRow(run: Run, tx: Transaction, table: RequestTable, type: RequestType, row: SourceRow, requesterUuid: string | null): Promise<boolean> {
    let request: SourceRequest;
    try {
      request = this.requestOf(run, type, row, requesterUuid);
    } catch (error) {
      if (error instanceof UnreadableRow) {
        run.report.skip(table, sourceIdOf(row), error.message);
        return false;
      }
      throw error;
    }
    const link = await this.imports.getLink(tx, table, String(request.id));
    if (link) {
      run.report.mapRequest(table, request.id, link.targetId);
      const now = await this.requests.getById(tx, link.targetId);
      if (now && now.status === link.importedState) {
        run.report.count(table, 'unchanged');
      } else {
        run.report.skip(table, request.id, `request ${link.targetId} here was ${now ? `${now.status} here` : 'deleted here'} since the import; kept as it is`);
      }
      return false;
    }
    const target = await this.targetOf(run, tx, table, type, request);
    if (!target) {
      return false;
    }
    const newRequest: NewCityRequest = {
      cityId: target.city.id,
      type,
      status: request.status,
      pendingKey: request.status === 'pending' ? pendingKeyOf(target.city.id, type) : null,
      changes: request.changes,
      requesterUuid: target.requesterUuid,
      remarks: request.remarks,
      ...(type === 'region' && request.changes.corners ? boundingBox(request.changes.corners) : { minX: null, maxX: null, minZ: null, maxZ: null }),
      createdAt: request.createdAt,
      // Who decided in the original service, and when, is not recorded there.
      decidedAt: null,
      decidedBy: null,
      rejectReason: null,
    };
    const requestId = await this.requests.insert(tx, newRequest);
    await this.imports.saveLink(tx, table, String(request.id), requestId, request.status);
    run.report.mapRequest(table, request.id, requestId);
    run.report.count(table, 'imported');
    return true;
  }

  /** The city the request is about and who asked, created for a create that never made one; undefined when skipped. */
  private async targetOf(run: Run, tx: Transaction, table: RequestTable, type: RequestType, request: SourceRequest): Promise<{ city: CityRecord; requesterUuid: string } | undefined> {
    if (type === 'create' && request.status !== 'approved') {
      return this.cityOfCreate(run, tx, table, request);
    }
    const city = request.cityId === null ? undefined : await this.cities.getRecord(tx, request.cityId);
    if (!city) {
      run.report.skip(table, request.id, `city ${request.cityId ?? 'NULL'} is not here (not imported); request not imported`);
      return undefined;
    }
    if (request.status === 'pending') {
      const pending = await this.requests.getPending(tx, city.id, type);
      if (pending) {
        run.report.skip(table, request.id, `city ${city.id} already has a pending ${type} request here (${pending.id}); not imported`);
        return undefined;
      }
    }
    if (type === 'create') {
      const requester = request.requester && (await this.ensurePlayer(tx, request.requester.uuid, request.requester.mcid, request.createdAt));
      return { city, requesterUuid: requester ? request.requester!.uuid : city.ownerUuid };
    }
    return { city, requesterUuid: city.ownerUuid };
  }

  /** A pending or rejected create never made a city there: its city row is made here, pending (names held) or rejected. */
  private async cityOfCreate(run: Run, tx: Transaction, table: RequestTable, request: SourceRequest): Promise<{ city: CityRecord; requesterUuid: string } | undefined> {
    const { changes } = request;
    if (!request.requester) {
      run.report.skip(table, request.id, 'requester not found: uuid is NULL and no login row has the name in player');
      return undefined;
    }
    const pending = request.status === 'pending';
    const name = changes.cityName ?? '';
    const kana = changes.cityNameKana ?? '';
    const regionName = changes.regionName ?? null;
    if (pending) {
      for (const [column, key] of [['name_key', nameKey(name)], ['kana_key', nameKey(kana)], ['region_key', regionName]] as const) {
        const holder = key ? await this.cities.getNameHolder(tx, column, key) : undefined;
        if (holder) {
          run.report.skip(table, request.id, `the requested ${column.replace('_key', '')} is taken here by city ${holder.id} (${holder.name}); not imported`);
          return undefined;
        }
      }
    }
    if (!(await this.ensurePlayer(tx, request.requester.uuid, request.requester.mcid, request.createdAt))) {
      run.report.skip(table, request.id, 'the requester has no login record and the row names no player');
      return undefined;
    }
    const corners = changes.corners ?? [];
    const city: Omit<CityRecord, 'id'> = {
      state: pending ? 'pending' : 'rejected',
      ownerUuid: request.requester.uuid,
      name,
      nameKana: kana,
      // A rejected create holds no name or region (as a rejection here frees them).
      nameKey: pending ? nameKey(name) : null,
      kanaKey: pending ? nameKey(kana) : null,
      regionName,
      regionKey: pending ? regionName : null,
      summary: changes.summary ?? null,
      origin: changes.origin ?? null,
      reason: changes.reason ?? null,
      remarks: changes.remarks ?? null,
      corners,
      blockCount: changes.count ?? 0,
      ...boundingBox(corners),
      createdAt: request.createdAt,
      updatedAt: request.createdAt,
    };
    const id = await this.cities.insert(tx, city);
    return { city: { ...city, id }, requesterUuid: request.requester.uuid };
  }

  /** The player's row exists (creating it with the recorded name); false when it cannot be made. */
  private async ensurePlayer(tx: Transaction, uuid: string, mcid: string | null, at: Date): Promise<boolean> {
    if (await this.players.getInTransaction(tx, uuid)) {
      return true;
    }
    if (mcid === null) {
      return false;
    }
    await this.players.createIfAbsent(tx, uuid, mcid, at);
    return true;
  }

  /** Throws UnreadableRow. */
  private requestOf(run: Run, type: RequestType, row: SourceRow, requesterUuid: string | null): SourceRequest {
    const id = integerOf(row.id, 'id');
    const createdAt = instantOf(row.created_at, run.offset, 'created_at');
    if (type === 'create') {
      const cityId = text(row.city_id) === null || Number(text(row.city_id)) === 0 ? null : integerOf(row.city_id, 'city_id');
      const corners = cornersOf(row.corners);
      const name = optionalText(row.name);
      const kana = optionalText(row.namekana);
      if (name === null || kana === null || name.length > 64 || kana.length > 64) {
        throw new UnreadableRow('name or namekana is missing or longer than 64 characters');
      }
      const changes: RequestedChanges = {
        cityName: name,
        cityNameKana: kana,
        corners,
        count: Math.round(blockCount(corners)),
        ...withoutNulls({
          regionName: optionalText(row.regionname)?.toLowerCase() ?? null,
          summary: optionalText(row.summary),
          origin: optionalText(row.name_origin),
          reason: optionalText(row.reason),
          remarks: optionalText(row.remarks),
        }),
      };
      const mcid = text(row.player) === null ? null : gameIdOf(row.player);
      return {
        id,
        status: requestStatusOf(row.status, cityId),
        cityId,
        changes,
        createdAt,
        remarks: optionalText(row.remarks),
        requester: requesterUuid === null ? undefined : { uuid: uuidOf(requesterUuid), mcid },
      };
    }
    const cityId = integerOf(row.cities_id, 'cities_id');
    if (type === 'region') {
      const corners = cornersOf(row.corners_new, 'corners_new');
      return { id, status: requestStatusOf(row.status, null), cityId, changes: { corners, count: Math.round(blockCount(corners)) }, createdAt, remarks: null };
    }
    // Only the non-NULL *_new fields are requested changes (NULL meant "unchanged").
    const changes = withoutNulls({
      cityName: text(row.name_new)?.trim() ?? null,
      cityNameKana: text(row.namekana_new)?.trim() ?? null,
      regionName: text(row.regionname_new)?.trim().toLowerCase() ?? null,
      summary: text(row.summary_new),
      origin: text(row.name_origin_new),
    });
    return { id, status: requestStatusOf(row.status, null), cityId, changes, createdAt, remarks: null };
  }
}
