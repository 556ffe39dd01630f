import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { EncodedJson } from '../common/http/encoded-json';
import { CitiesListCache } from './cities-list.cache';
import { CityAuditService } from './city-audit.service';
import { nameKey } from './city-name';
import { City } from './city.entity';
import { CityRequest, RequestStatus, RequestType } from './city-request.entity';
import { CityRequestView, CityView, HistoryEntryView, toCityView, toHistoryView, toRequestView } from './city.view';

export interface RequestFilter {
  status?: RequestStatus;
  type?: RequestType;
  cityId?: number;
}

/** Reads. Only registered (`active`) cities are visible; pending, rejected and deleted ones never are. */
@Injectable()
export class CitiesQueryService {
  constructor(
    @InjectRepository(City) private readonly cities: Repository<City>,
    @InjectRepository(CityRequest) private readonly requests: Repository<CityRequest>,
    private readonly audit: CityAuditService,
    private readonly listCache: CitiesListCache,
  ) {}

  async list(): Promise<CityView[]> {
    const cities = await this.registered().orderBy('city.id', 'ASC').getMany();
    return cities.map(toCityView);
  }

  /** The whole `GET /cities` response, from the cache while no city or player changed. */
  listResponse(): Promise<EncodedJson> {
    return this.listCache.get(() => this.list());
  }

  /** `?id=` and/or `?name=` (exact after NFKC, case-insensitive): one city or 404. */
  async findOne(filter: { id?: number; name?: string }): Promise<CityView> {
    const query = this.registered();
    if (filter.id !== undefined) {
      query.andWhere('city.id = :id', { id: filter.id });
    }
    if (filter.name !== undefined) {
      query.andWhere('city.name_key = :key', { key: nameKey(filter.name) });
    }
    const city = await query.getOne();
    if (!city) {
      throw ApiError.notFound('No registered city matches.');
    }
    return toCityView(city);
  }

  async byOwner(uuid: string): Promise<CityView[]> {
    const cities = await this.registered().andWhere('city.owner_uuid = :uuid', { uuid: uuid.toLowerCase() }).orderBy('city.id', 'ASC').getMany();
    return cities.map(toCityView);
  }

  /** The registered city entity, or 404. */
  async findRegistered(id: number): Promise<City> {
    const city = await this.cities.findOneBy({ id, state: 'active' });
    if (!city) {
      throw ApiError.notFound(`There is no registered city ${id}.`);
    }
    return city;
  }

  findRegisteredView(id: number): Promise<CityView> {
    return this.findOne({ id });
  }

  async listRequests(filter: RequestFilter): Promise<CityRequestView[]> {
    const query = this.requests
      .createQueryBuilder('request')
      .leftJoinAndSelect('request.requester', 'requester')
      .where('request.status = :status', { status: filter.status ?? 'pending' })
      .orderBy('request.id', 'ASC');
    if (filter.type) {
      query.andWhere('request.type = :type', { type: filter.type });
    }
    if (filter.cityId !== undefined) {
      query.andWhere('request.city_id = :cityId', { cityId: filter.cityId });
    }
    const requests = await query.getMany();
    return requests.map((request) => toRequestView(request, request.requester));
  }

  /** The audit trail of any city that ever existed (pending, rejected and deleted ones included: operators ask). */
  async history(cityId: number): Promise<HistoryEntryView[]> {
    if (!(await this.cities.existsBy({ id: cityId }))) {
      throw ApiError.notFound(`There is no city ${cityId}.`);
    }
    return (await this.audit.history(cityId)).map(toHistoryView);
  }

  private registered() {
    return this.cities.createQueryBuilder('city').leftJoinAndSelect('city.owner', 'owner').where("city.state = 'active'");
  }
}
