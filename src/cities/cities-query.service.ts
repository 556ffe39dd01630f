import { Injectable } from '@nestjs/common';
import { msg } from '../common/errors/messages';
import { ApiError } from '../common/errors/api-error';
import { EncodedJson } from '../common/http/encoded-json';
import { CitiesListCache } from './cities-list.cache';
import { CitiesRepository } from './cities.repository';
import { CityAuditRepository } from './city-audit.repository';
import { nameKey } from './city-name';
import { CityRequestsRepository } from './city-requests.repository';
import type { RequestStatus, RequestType } from './city-request.entity';
import type { CityRequestView, CityView, HistoryEntryView } from './city.view';

export interface RequestQuery {
  status?: RequestStatus;
  type?: RequestType;
  cityId?: number;
}

/** Reads. Only registered (`active`) cities are visible; pending, rejected and deleted ones never are. */
@Injectable()
export class CitiesQueryService {
  constructor(
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
    private readonly audit: CityAuditRepository,
    private readonly listCache: CitiesListCache,
  ) {}

  /** The whole `GET /cities` response, from the cache while no city or player changed. */
  listResponse(): Promise<EncodedJson> {
    return this.listCache.get(() => this.cities.getAll());
  }

  /** `?id=` and/or `?name=` (exact after NFKC, case-insensitive): one city or 404. */
  async findOne({ id, name }: { id?: number; name?: string }): Promise<CityView> {
    const city = await this.lookUp(id, name === undefined ? undefined : nameKey(name));
    if (!city) {
      throw ApiError.notFound('cities.noMatch');
    }
    return city;
  }

  private lookUp(id: number | undefined, key: string | undefined): Promise<CityView | undefined> {
    if (id !== undefined) {
      return key === undefined ? this.cities.getById(id) : this.cities.getByIdAndNameKey(id, key);
    }
    return key === undefined ? Promise.resolve(undefined) : this.cities.getByNameKey(key);
  }

  byOwner(uuid: string): Promise<CityView[]> {
    return this.cities.getByOwner(uuid.toLowerCase());
  }

  listRequests(query: RequestQuery): Promise<CityRequestView[]> {
    return this.requests.getViews({ ...query, status: query.status ?? 'pending' });
  }

  /** The audit trail of any city that ever existed (pending, rejected and deleted ones included: operators ask). */
  async history(cityId: number): Promise<HistoryEntryView[]> {
    if (!(await this.cities.exists(cityId))) {
      throw ApiError.notFound(msg('cities.noCity', { id: cityId }));
    }
    return this.audit.getByCity(cityId);
  }
}
