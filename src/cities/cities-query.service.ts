import { Injectable } from '@nestjs/common';
import { msg } from '../common/errors/messages';
import { ApiError } from '../common/errors/api-error';
import { EncodedJson } from '../common/http/encoded-json';
import { UnitOfWork } from '../database/unit-of-work';
import { CitiesListCache } from './cities-list.cache';
import { CitiesRepository } from './cities.repository';
import { CityAuditRepository } from './city-audit.repository';
import { nameKey } from './city-name';
import { CityRequestsRepository } from './city-requests.repository';
import type { RequestStatus, RequestType } from './city-request.entity';
import type { CityState } from './city.entity';
import { Conflict, CityRulesService } from './city-rules.service';
import { CityRequestView, CityView, HistoryEntryView, LegacyCityFields, withLegacyFields } from './city.view';
import type { Page, PageQuery } from './page';

export interface RequestQuery {
  status?: RequestStatus;
  type?: RequestType;
  cityId?: number;
}

/** Reads. Only registered (`active`) cities are visible; pending, rejected and deleted ones never are (but to operators: `ownedBy`, the moderation API's player page). */
@Injectable()
export class CitiesQueryService {
  /** The flat-names copies of cached city views (docs/api.md, City rules), built once per cached view. */
  private readonly legacyViews = new WeakMap<CityView, CityView & LegacyCityFields>();

  constructor(
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
    private readonly audit: CityAuditRepository,
    private readonly listCache: CitiesListCache,
    private readonly rules: CityRulesService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The whole `GET /cities` response, from the cache while no city or player changed. */
  listResponse(): Promise<EncodedJson> {
    return this.listCache.get(() => this.cities.getAll());
  }

  /** `?id=` and/or `?name=` (exact after NFKC, case-insensitive): one city or 404, with the earlier service's flat names. */
  async findOne({ id, name }: { id?: number; name?: string }): Promise<CityView & LegacyCityFields> {
    const city = await this.lookUp(id, name === undefined ? undefined : nameKey(name));
    if (!city) {
      throw ApiError.notFound('cities.noMatch');
    }
    // A cached view is the same object on every hit: its flat-names copy is built once.
    let legacy = this.legacyViews.get(city);
    if (!legacy) {
      legacy = withLegacyFields(city);
      this.legacyViews.set(city, legacy);
    }
    return legacy;
  }

  private lookUp(id: number | undefined, key: string | undefined): Promise<CityView | undefined> {
    if (id !== undefined) {
      return key === undefined ? this.cities.getById(id) : this.cities.getByIdAndNameKey(id, key);
    }
    return key === undefined ? Promise.resolve(undefined) : this.cities.getByNameKey(key);
  }

  /** Every city of an owner in any state, for the moderation API: id, name and state. */
  ownedBy(uuid: string): Promise<Array<{ id: number; name: string; state: CityState }>> {
    return this.cities.getStatesByOwner(uuid.toLowerCase());
  }

  byOwner(uuid: string): Promise<CityView[]> {
    return this.cities.getByOwner(uuid.toLowerCase());
  }

  listRequests(query: RequestQuery, page: PageQuery): Promise<Page<CityRequestView>> {
    return this.requests.getViews({ ...query, status: query.status ?? 'pending' }, page);
  }

  /** The requests a player filed, every status. */
  requestsOf(playerUuid: string, page: PageQuery): Promise<Page<CityRequestView>> {
    return this.requests.getViewsByRequester(playerUuid, page);
  }

  /** The audit trail of any city that ever existed (pending, rejected and deleted ones included: operators ask). */
  async history(cityId: number, page: PageQuery): Promise<Page<HistoryEntryView>> {
    if (!(await this.cities.exists(cityId))) {
      throw ApiError.notFound(msg('cities.noCity', { id: cityId }));
    }
    return this.audit.getByCity(cityId, page);
  }

  /** What approving the pending request now would run into (the rules approval applies). */
  conflicts(requestId: number): Promise<Conflict[]> {
    return this.unitOfWork.transaction(async (tx) => {
      const request = await this.requests.getById(tx, requestId);
      const city = request?.status === 'pending' ? await this.cities.getRecord(tx, request.cityId) : undefined;
      if (!request || !city) {
        throw ApiError.notFound(msg('cities.noPendingRequestId', { requestId }));
      }
      return this.rules.requestConflicts(tx, request.type, city, request.changes, request.id);
    });
  }
}
