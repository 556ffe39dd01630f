import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import type { Transaction } from '../database/transaction';
import { CitiesRepository } from '../cities/cities.repository';
import type { CityRecord, CityRequestRecord } from '../cities/city.records';
import { checkRegion, checkRegionName } from '../cities/city-input';
import { CITIES_LOCK } from '../cities/city-lock';
import { checkCityName, checkCityNameKana, nameKey } from '../cities/city-name';
import { pendingKeyOf, RequestedChanges, RequestStatus, RequestType } from '../cities/city-request.entity';
import { CityRequestsRepository } from '../cities/city-requests.repository';
import { Conflict, CityRulesService } from '../cities/city-rules.service';
import { blockCount, boundingBox, Point } from '../cities/geometry';
import { PlayersRepository } from '../players/players.repository';
import { fitText, MAX_TARGET_ID, Run, skippedOwner } from './import-run';
import { OriginalImportRepository } from './original-import.repository';
import { inTransactions } from './target-session';
import { cornersInput, cornersOf, sourceIdOf, gameIdOf, instantOf, integerOf, optionalText, outsideWorld, requestStatusOf, SourceRow, text, UnreadableRow, uuidOf } from './original-mapping';

type RequestTable = 'cities_new_waiting' | 'cities_corners_waiting' | 'cities_other_waiting';

const TABLES: ReadonlyArray<{ table: RequestTable; type: RequestType; columns: string[]; cityColumn: string }> = [
  {
    table: 'cities_new_waiting',
    type: 'create',
    columns: ['name', 'namekana', 'regionname', 'player', 'uuid', 'summary', 'name_origin', 'corners', 'reason', 'remarks', 'status', 'city_id', 'created_at'],
    cityColumn: 'city_id',
  },
  { table: 'cities_corners_waiting', type: 'region', columns: ['cities_id', 'corners_new', 'status', 'created_at'], cityColumn: 'cities_id' },
  {
    table: 'cities_other_waiting',
    type: 'update',
    columns: ['cities_id', 'name_new', 'namekana_new', 'regionname_new', 'summary_new', 'name_origin_new', 'status', 'created_at'],
    cityColumn: 'cities_id',
  },
];

/** Who decided a pending request the import rejects (docs/moving-from-original.md, "Pending requests"). */
export const IMPORT_DECIDER = 'import:original';

/** What an original request row says, read and checked. */
interface SourceRequest {
  id: number;
  status: RequestStatus;
  /** The source's id of the city it is about, as text (create: the city it made, once applied). */
  cityKey: string | null;
  changes: RequestedChanges;
  createdAt: Date;
  remarks: string | null;
  /** create: the row's player. */
  requester?: { uuid: string; mcid: string | null };
}

function withoutNulls(fields: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== null));
}

/** The English sentence of a rule the API would answer 400 for. */
function ruleMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const field = error.details?.[0]?.field;
    return field ? `${field}: ${error.text.en}` : error.text.en;
  }
  throw error;
}

function conflictMessage(conflict: Conflict): string {
  const what = { name: 'the name', kana: 'the kana reading', regionName: 'the region name', region: 'the region' }[conflict.kind];
  return `${what} ${conflict.kind === 'region' ? 'overlaps' : 'is taken by'} city ${conflict.cityId} (${conflict.name}) here`;
}

/** The three request tables → create, region and update requests (docs/moving-from-original.md). */
@Injectable()
export class OriginalRequestsImporter {
  constructor(
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
    private readonly rules: CityRulesService,
    private readonly players: PlayersRepository,
    private readonly imports: OriginalImportRepository,
  ) {}

  async import(run: Run, onProgress: (table: string, rows: number) => void): Promise<void> {
    for (const { table, type, columns, cityColumn } of TABLES) {
      if (!run.source.hasTable(table)) {
        continue;
      }
      run.report.counts(table);
      const newest = type === 'create' ? new Map<string, string>() : await this.newestPending(run, table, cityColumn);
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
            // Written through the owning repositories, which bump the topics their tables feed.
            for (const row of chunk) {
              await this.importRow(run, tx, table, type, row, requesters.get(row) ?? null, newest);
            }
          },
          { lock: CITIES_LOCK },
        );
        rows += page.length;
        onProgress(table, rows);
      }
    }
  }

  /**
   * The newest pending (status 0) request of each city, by creation time and then id: the one that
   * stays pending. The older ones are imported as rejected, superseded (one pending request per
   * city and type, as the API enforces). Pending requests are few: they are read at once.
   */
  private async newestPending(run: Run, table: RequestTable, cityColumn: string): Promise<Map<string, string>> {
    const newest = new Map<string, { id: string; order: [string, number] }>();
    for (const row of await run.source.select(table, [cityColumn, 'created_at'], '`status` = 0')) {
      const city = text(row[cityColumn]);
      const id = text(row.id);
      if (city === null || id === null) {
        continue;
      }
      const order: [string, number] = [text(row.created_at) ?? '', Number(id)];
      const best = newest.get(city);
      if (!best || order[0] > best.order[0] || (order[0] === best.order[0] && order[1] > best.order[1])) {
        newest.set(city, { id, order });
      }
    }
    return new Map([...newest].map(([city, best]) => [city, best.id]));
  }

  private async importRow(
    run: Run,
    tx: Transaction,
    table: RequestTable,
    type: RequestType,
    row: SourceRow,
    sourceRequester: string | null,
    newest: ReadonlyMap<string, string>,
  ): Promise<boolean> {
    let request: SourceRequest;
    try {
      request = this.requestOf(run, type, row, sourceRequester);
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
    if (type === 'create' && request.status !== 'approved') {
      return this.importCreate(run, tx, table, request);
    }
    const city = await this.cityOf(run, tx, table, request);
    if (!city) {
      return false;
    }
    let rejection: string | undefined;
    if (request.status === 'pending') {
      const newer = request.cityKey === null ? undefined : newest.get(request.cityKey);
      const pendingHere = await this.requests.getPending(tx, city.id, type);
      if (newer !== undefined && newer !== String(request.id)) {
        rejection = `superseded by the newer pending request #${newer} of the same city`;
      } else if (pendingHere) {
        rejection = `superseded: request ${pendingHere.id} of this city is pending here`;
      } else {
        rejection = await this.brokenRule(tx, request.changes, city);
      }
    }
    let requesterUuid = city.ownerUuid;
    if (type === 'create' && request.requester && (await this.ensurePlayer(tx, request.requester.uuid, request.requester.mcid, request.createdAt))) {
      requesterUuid = request.requester.uuid;
    }
    await this.insert(run, tx, table, request, city.id, type, requesterUuid, rejection);
    return true;
  }

  /** The city here that the request is about; undefined (reported) when it was skipped or is not in the source. */
  private async cityOf(run: Run, tx: Transaction, table: RequestTable, request: SourceRequest): Promise<CityRecord | undefined> {
    const skipped = skippedOwner(run, 'cities', request.cityKey);
    if (skipped !== undefined) {
      run.report.skip(table, request.id, `belongs to city #${request.cityKey}, which was not imported (${skipped})`);
      return undefined;
    }
    const cityId = request.cityKey === null ? undefined : run.cities.get(request.cityKey);
    const city = cityId === undefined ? undefined : await this.cities.getRecord(tx, cityId);
    if (!city) {
      run.report.skip(table, request.id, `city #${request.cityKey ?? 'NULL'} is not in the source's cities table; request not imported`);
      return undefined;
    }
    return city;
  }

  /** Writes the request under the next id; a pending one that breaks a rule is written rejected, with the reason. */
  private async insert(
    run: Run,
    tx: Transaction,
    table: RequestTable,
    request: SourceRequest,
    cityId: number,
    type: RequestType,
    requesterUuid: string,
    rejection: string | undefined,
  ): Promise<void> {
    const status: RequestStatus = rejection === undefined ? request.status : 'rejected';
    const corners = type === 'region' ? request.changes.corners : undefined;
    const requestId = await this.imports.nextId(tx, 'city_requests');
    const record: CityRequestRecord = {
      id: requestId,
      cityId,
      type,
      status,
      pendingKey: status === 'pending' ? pendingKeyOf(cityId, type) : null,
      changes: request.changes,
      requesterUuid,
      remarks: request.remarks,
      // The bounding box feeds the overlap check of pending regions; corners outside the world have none.
      ...(corners && !outsideWorld(corners) ? boundingBox(corners) : { minX: null, maxX: null, minZ: null, maxZ: null }),
      createdAt: request.createdAt,
      // Who decided in the original service, and when, is not recorded there; a rejection by the import is.
      decidedAt: rejection === undefined ? null : new Date(),
      decidedBy: rejection === undefined ? null : IMPORT_DECIDER,
      rejectReason: rejection === undefined ? null : `Rejected on import: ${rejection}`,
    };
    await this.requests.insertWithId(tx, record);
    await this.imports.saveLink(tx, table, String(request.id), requestId, status);
    if (rejection !== undefined) {
      run.report.problem(table, request.id, `pending in the original, imported as rejected: ${rejection}`);
    }
    run.report.mapRequest(table, request.id, requestId);
    run.report.count(table, 'imported');
  }

  /**
   * The first rule of a new request (docs/api.md, City rules) that this pending request breaks:
   * the API's own checks of names, reading, region name and corners (rectilinear, inside the
   * world, the block limits), then the conflicts an approval would run into.
   */
  private async brokenRule(tx: Transaction, changes: RequestedChanges, city: CityRecord | undefined): Promise<string | undefined> {
    try {
      const claims: { name?: string; kana?: string; regionName?: string } = {};
      if (changes.cityName !== undefined) {
        const checked = checkCityName(changes.cityName);
        if (!checked.ok) {
          return `cityName: ${checked.reason.en}`;
        }
        claims.name = checked.key;
      }
      if (changes.cityNameKana !== undefined) {
        const checked = checkCityNameKana(changes.cityNameKana);
        if (!checked.ok) {
          return `cityNameKana: ${checked.reason.en}`;
        }
        claims.kana = checked.key;
      }
      if (changes.regionName !== undefined) {
        const regionName = checkRegionName(changes.regionName);
        if (regionName !== '') {
          claims.regionName = regionName;
        }
      }
      const conflicts = await this.rules.nameConflicts(tx, claims, city?.id);
      if (changes.corners) {
        const region = checkRegion({ corners: cornersInput(changes.corners), count: blockCount(changes.corners), reason: changes.reason }, this.rules.limits);
        conflicts.push(...(await this.rules.regionConflicts(tx, region.corners, region.box, { cityId: city?.id })));
      }
      return conflicts.length > 0 ? conflictMessage(conflicts[0]) : undefined;
    } catch (error) {
      return ruleMessage(error);
    }
  }

  /** A pending or rejected create never made a city there: its city row is made here, pending (names held) or rejected. */
  private async importCreate(run: Run, tx: Transaction, table: RequestTable, request: SourceRequest): Promise<boolean> {
    const { changes } = request;
    if (!request.requester) {
      run.report.skip(table, request.id, 'requester not found: uuid is NULL and no login row has the name in player');
      return false;
    }
    const corners: Point[] = changes.corners ?? [];
    if (outsideWorld(corners)) {
      run.report.skip(table, request.id, "corners lie outside the world's bounds: its city row can't hold them");
      return false;
    }
    if ((changes.count ?? 0) > MAX_TARGET_ID) {
      run.report.skip(table, request.id, `the region covers ${changes.count} blocks, more than its city row's block count holds`);
      return false;
    }
    if (!(await this.ensurePlayer(tx, request.requester.uuid, request.requester.mcid, request.createdAt))) {
      run.report.skip(table, request.id, 'the requester has no login record and the row names no player');
      return false;
    }
    const rejection = request.status === 'pending' ? await this.brokenRule(tx, changes, undefined) : undefined;
    const pending = request.status === 'pending' && rejection === undefined;
    const name = changes.cityName ?? '';
    const kana = changes.cityNameKana ?? '';
    const regionName = changes.regionName ?? null;
    const cityId = await this.imports.nextId(tx, 'cities');
    const city: CityRecord = {
      id: cityId,
      state: pending ? 'pending' : 'rejected',
      ownerUuid: request.requester.uuid,
      name,
      nameKana: kana,
      // A rejected create holds no name or region (as a rejection here frees them).
      nameKey: pending ? nameKey(name) : null,
      kanaKey: pending ? nameKey(kana) : null,
      regionName: regionName !== null && regionName.length <= 32 ? regionName : null,
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
    await this.cities.insertWithId(tx, city);
    await this.insert(run, tx, table, request, cityId, 'create', request.requester.uuid, rejection);
    return true;
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

  /** Throws UnreadableRow, also for a value the target can't hold. */
  private requestOf(run: Run, type: RequestType, row: SourceRow, requesterUuid: string | null): SourceRequest {
    const request = this.readRequest(run, type, row, requesterUuid);
    // The changes are stored as one JSON text: together they must fit the target's text column.
    fitText(run.limits, 'the requested changes', JSON.stringify(request.changes));
    fitText(run.limits, 'remarks', request.remarks);
    return request;
  }

  private readRequest(run: Run, type: RequestType, row: SourceRow, requesterUuid: string | null): SourceRequest {
    const id = integerOf(row.id, 'id');
    const createdAt = instantOf(row.created_at, run.offset, 'created_at');
    if (type === 'create') {
      const cityKey = text(row.city_id) === null || Number(text(row.city_id)) === 0 ? null : text(row.city_id);
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
        // Applied (city_id set) means approved, whatever the city's id.
        status: requestStatusOf(row.status, cityKey === null ? null : 1),
        cityKey,
        changes,
        createdAt,
        remarks: optionalText(row.remarks),
        requester: requesterUuid === null ? undefined : { uuid: uuidOf(requesterUuid), mcid },
      };
    }
    const cityKey = text(row.cities_id);
    if (type === 'region') {
      const corners = cornersOf(row.corners_new, 'corners_new');
      return { id, status: requestStatusOf(row.status, null), cityKey, changes: { corners, count: Math.round(blockCount(corners)) }, createdAt, remarks: null };
    }
    // Only the non-NULL *_new fields are requested changes (NULL meant "unchanged").
    const changes = withoutNulls({
      cityName: text(row.name_new)?.trim() ?? null,
      cityNameKana: text(row.namekana_new)?.trim() ?? null,
      regionName: text(row.regionname_new)?.trim().toLowerCase() ?? null,
      summary: text(row.summary_new),
      origin: text(row.name_origin_new),
    });
    return { id, status: requestStatusOf(row.status, null), cityKey, changes, createdAt, remarks: null };
  }
}
