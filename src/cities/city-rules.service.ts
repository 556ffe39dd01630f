import { Injectable } from '@nestjs/common';
import { ApiError, detail } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../database/database-errors';
import type { Transaction } from '../database/transaction';
import { CitiesRepository, NameColumn } from './cities.repository';
import type { CityRecord } from './city.records';
import { nameKey } from './city-name';
import type { RequestedChanges, RequestType } from './city-request.entity';
import { CityRequestsRepository } from './city-requests.repository';
import type { BlockLimits } from './city-input';
import { boundingBox, BoundingBox, Point, regionsOverlap } from './geometry';

/** Which claims the overlap check leaves out: the city's own region, the request being decided. */
export interface RegionExclusions {
  cityId?: number;
  requestId?: number;
}

/** What approving a request now would run into. */
export interface Conflict {
  kind: 'name' | 'kana' | 'regionName' | 'region';
  cityId: number;
  name: string;
}

/** The unique keys a change claims: normalised name and kana, lower-cased region name. */
export interface NameClaims {
  name?: string;
  kana?: string;
  regionName?: string;
}

const NAME_CHECKS: ReadonlyArray<{ kind: Conflict['kind']; column: NameColumn; claim: keyof NameClaims }> = [
  { kind: 'name', column: 'name_key', claim: 'name' },
  { kind: 'kana', column: 'kana_key', claim: 'kana' },
  { kind: 'regionName', column: 'region_key', claim: 'regionName' },
];

/**
 * The conflict rules of docs/api.md, City rules (409). They read inside the caller's transaction, which
 * holds the `cities` lock, so that check and write cannot interleave with another request.
 */
@Injectable()
export class CityRulesService {
  constructor(
    private readonly config: AppConfig,
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
  ) {}

  get limits(): BlockLimits {
    return { limit: this.config.CITY_BLOCK_LIMIT, max: this.config.CITY_BLOCK_MAX };
  }

  /** Names, kana and region names held by a registered city or a pending create (their keys are set exactly then). */
  async nameConflicts(tx: Transaction, claims: NameClaims, exceptCityId?: number): Promise<Conflict[]> {
    const conflicts: Conflict[] = [];
    for (const { kind, column, claim } of NAME_CHECKS) {
      const key = claims[claim];
      const holder = key ? await this.cities.getNameHolder(tx, column, key, exceptCityId) : undefined;
      if (holder) {
        conflicts.push({ kind, cityId: holder.id, name: holder.name });
      }
    }
    return conflicts;
  }

  /**
   * The region must not share a block with a registered city, a pending create or a pending region
   * request. SQL narrows the candidates by bounding box (indexed); the exact polygon test decides.
   */
  async regionConflicts(tx: Transaction, corners: Point[], box: BoundingBox, except: RegionExclusions = {}): Promise<Conflict[]> {
    const claimed = [...(await this.cities.getClaimedRegionsInBox(tx, box, except.cityId)), ...(await this.requests.getPendingRegionsInBox(tx, box, except))];
    return claimed.filter((claim) => regionsOverlap(corners, claim.corners)).map((claim) => ({ kind: 'region', cityId: claim.cityId, name: claim.name }));
  }

  /** What approving the request now would run into; a city's own name and region never conflict with it. */
  async requestConflicts(tx: Transaction, type: RequestType, city: CityRecord, changes: RequestedChanges, requestId?: number): Promise<Conflict[]> {
    if (type === 'create') {
      return this.regionConflicts(tx, city.corners, boundingBox(city.corners), { cityId: city.id });
    }
    if (type === 'region') {
      return changes.corners ? this.regionConflicts(tx, changes.corners, boundingBox(changes.corners), { cityId: city.id, requestId }) : [];
    }
    return this.nameConflicts(tx, changeClaims(changes), city.id);
  }

  async assertNamesFree(tx: Transaction, claims: NameClaims, exceptCityId?: number): Promise<void> {
    throwFirst(await this.nameConflicts(tx, claims, exceptCityId));
  }

  async assertRegionFree(tx: Transaction, corners: Point[], box: BoundingBox, except: RegionExclusions = {}): Promise<void> {
    throwFirst(await this.regionConflicts(tx, corners, box, except));
  }

  /** Name and region rules for a change of an existing city (or its pending create), as approval would apply them. */
  async assertApprovable(tx: Transaction, type: RequestType, city: CityRecord, changes: RequestedChanges, requestId?: number): Promise<void> {
    throwFirst(await this.requestConflicts(tx, type, city, changes, requestId));
  }

  /** CITY_MAX_PER_OWNER counts registered cities and pending creates. */
  async assertOwnerBelowLimit(tx: Transaction, ownerUuid: string): Promise<void> {
    const owned = await this.cities.countClaimedByOwner(tx, ownerUuid);
    if (owned >= this.config.CITY_MAX_PER_OWNER) {
      throw ApiError.conflict(msg('cities.ownerLimit', { max: this.config.CITY_MAX_PER_OWNER }));
    }
  }
}

/** The keys an update claims ("" clears a region name and claims nothing). */
function changeClaims(changes: RequestedChanges): NameClaims {
  return {
    ...(changes.cityName !== undefined ? { name: nameKey(changes.cityName) } : {}),
    ...(changes.cityNameKana !== undefined ? { kana: nameKey(changes.cityNameKana) } : {}),
    ...(changes.regionName ? { regionName: changes.regionName } : {}),
  };
}

/** The 409 of each kind of conflict: the field it names and the catalogue sentences. */
const CONFLICT_ERRORS = {
  name: { field: 'cityName', message: 'cities.nameTaken', detail: 'cities.nameTaken.detail' },
  kana: { field: 'cityNameKana', message: 'cities.kanaTaken', detail: 'cities.kanaTaken.detail' },
  regionName: { field: 'regionName', message: 'cities.regionNameTaken', detail: 'cities.regionNameTaken.detail' },
  region: { field: 'corners', message: 'cities.regionTaken', detail: 'cities.regionTaken.detail' },
} as const;

function throwFirst(conflicts: Conflict[]): void {
  const [first] = conflicts;
  if (first) {
    throw conflictError(first.kind);
  }
}

function conflictError(kind: Conflict['kind']): ApiError {
  const { field, message, detail: detailMessage } = CONFLICT_ERRORS[kind];
  return ApiError.conflict(message, [detail(field, detailMessage)]);
}

/**
 * A unique index refused the write: another request won a race the prior SELECT could not see.
 * The index names say which rule it was.
 */
export function conflictFromUniqueViolation(error: unknown): unknown {
  if (!isUniqueViolation(error)) {
    return error;
  }
  const text = error instanceof Error ? error.message : String(error);
  if (/kana_key/i.test(text)) {
    return conflictError('kana');
  }
  if (/region_key/i.test(text)) {
    return conflictError('regionName');
  }
  if (/pending_key/i.test(text)) {
    return ApiError.conflict('cities.pendingOfTypeExists');
  }
  return conflictError('name');
}
