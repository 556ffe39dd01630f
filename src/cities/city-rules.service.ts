import { Injectable } from '@nestjs/common';
import { ApiError, detail } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../database/database-errors';
import type { Transaction } from '../database/unit-of-work';
import { CitiesRepository } from './cities.repository';
import { nameKey } from './city-name';
import type { RequestedChanges } from './city-request.entity';
import { CityRequestsRepository } from './city-requests.repository';
import type { BlockLimits, NameDraft } from './city-input';
import { boundingBox, BoundingBox, Point, regionsOverlap } from './geometry';

/** Which claims the overlap check leaves out: the city's own region, the request being decided. */
export interface RegionExclusions {
  cityId?: number;
  requestId?: number;
}

/**
 * The conflict rules of contract section 6 (409). They read inside the caller's transaction, which
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

  /** cityName / cityNameKana taken by a registered city or a pending create (their keys are set exactly then). */
  async assertNamesFree(tx: Transaction, names: { name?: NameDraft; kana?: NameDraft }, exceptCityId?: number): Promise<void> {
    const checks = [
      { field: 'cityName', column: 'name_key', draft: names.name },
      { field: 'cityNameKana', column: 'kana_key', draft: names.kana },
    ] as const;
    for (const { field, column, draft } of checks) {
      if (draft && (await this.cities.isNameTaken(tx, column, draft.key, exceptCityId))) {
        throw nameTaken(field);
      }
    }
  }

  /**
   * The region must not share a block with a registered city, a pending create or a pending region
   * request. SQL narrows the candidates by bounding box (indexed); the exact polygon test decides.
   */
  async assertRegionFree(tx: Transaction, corners: Point[], box: BoundingBox, except: RegionExclusions = {}): Promise<void> {
    const claimed = [...(await this.cities.getClaimedRegionsInBox(tx, box, except.cityId)), ...(await this.requests.getPendingRegionsInBox(tx, box, except))];
    if (claimed.some((region) => regionsOverlap(corners, region))) {
      throw regionTaken();
    }
  }

  /** Name and region rules for a region or update change of an existing city (its own region and name never conflict with it). */
  async assertChangesAllowed(tx: Transaction, cityId: number, type: 'region' | 'update', changes: RequestedChanges, requestId?: number): Promise<void> {
    if (type === 'region' && changes.corners) {
      await this.assertRegionFree(tx, changes.corners, boundingBox(changes.corners), { cityId, requestId });
    }
    if (type === 'update') {
      const name = changes.cityName !== undefined ? { value: changes.cityName, key: nameKey(changes.cityName) } : undefined;
      const kana = changes.cityNameKana !== undefined ? { value: changes.cityNameKana, key: nameKey(changes.cityNameKana) } : undefined;
      await this.assertNamesFree(tx, { name, kana }, cityId);
    }
  }

  /** CITY_MAX_PER_OWNER counts registered cities and pending creates. */
  async assertOwnerBelowLimit(tx: Transaction, ownerUuid: string): Promise<void> {
    const owned = await this.cities.countClaimedByOwner(tx, ownerUuid);
    if (owned >= this.config.CITY_MAX_PER_OWNER) {
      throw ApiError.conflict(msg('cities.ownerLimit', { max: this.config.CITY_MAX_PER_OWNER }));
    }
  }
}

function nameTaken(field: 'cityName' | 'cityNameKana'): ApiError {
  return field === 'cityName'
    ? ApiError.conflict('cities.nameTaken', [detail(field, 'cities.nameTaken.detail')])
    : ApiError.conflict('cities.kanaTaken', [detail(field, 'cities.kanaTaken.detail')]);
}

function regionTaken(): ApiError {
  return ApiError.conflict('cities.regionTaken', [detail('corners', 'cities.regionTaken.detail')]);
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
    return nameTaken('cityNameKana');
  }
  if (/pending_key/i.test(text)) {
    return ApiError.conflict('cities.pendingOfTypeExists');
  }
  return nameTaken('cityName');
}
