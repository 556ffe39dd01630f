import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { EncodedJson } from '../common/http/encoded-json';
import { SqlReader } from '../database/sql-reader';
import { CitiesListCache } from './cities-list.cache';
import { CityAuditService } from './city-audit.service';
import { nameKey } from './city-name';
import { City } from './city.entity';
import { CityRequest, RequestStatus, RequestType } from './city-request.entity';
import { CITY_ROW_COLUMNS, CityRequestView, CityRow, cityRowView, CityView, HistoryEntryView, toHistoryView, toRequestView } from './city.view';

/** Registered cities with their owner's current names; each read adds its condition (and order) after this. */
const REGISTERED = `SELECT ${CITY_ROW_COLUMNS} FROM cities city LEFT JOIN players player ON player.uuid = city.owner_uuid WHERE city.state = 'active'`;
const LIST_SQL = `${REGISTERED} ORDER BY city.id ASC`;
const BY_ID_SQL = `${REGISTERED} AND city.id = ?`;
const BY_NAME_SQL = `${REGISTERED} AND city.name_key = ?`;
const BY_ID_AND_NAME_SQL = `${REGISTERED} AND city.id = ? AND city.name_key = ?`;
// Served by IDX_cities_owner_state.
const BY_OWNER_SQL = `${REGISTERED} AND city.owner_uuid = ? ORDER BY city.id ASC`;

/** The statement (one fixed SQL text per filter shape, so prepared statements are reused) and its parameters. */
function oneCityQuery({ id, name }: { id?: number; name?: string }): [string, unknown[]] {
  if (id !== undefined && name !== undefined) {
    return [BY_ID_AND_NAME_SQL, [id, nameKey(name)]];
  }
  if (id !== undefined) {
    return [BY_ID_SQL, [id]];
  }
  if (name !== undefined) {
    return [BY_NAME_SQL, [nameKey(name)]];
  }
  return [`${LIST_SQL} LIMIT 1`, []];
}

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
    private readonly reader: SqlReader,
  ) {}

  /** Plain SQL, one join, no entity hydration: the cached list is rebuilt after every write. */
  async list(): Promise<CityView[]> {
    return (await this.reader.all<CityRow>(LIST_SQL)).map(cityRowView);
  }

  /** The whole `GET /cities` response, from the cache while no city or player changed. */
  listResponse(): Promise<EncodedJson> {
    return this.listCache.get(() => this.list());
  }

  /** `?id=` and/or `?name=` (exact after NFKC, case-insensitive): one city or 404. */
  async findOne(filter: { id?: number; name?: string }): Promise<CityView> {
    const row = await this.reader.one<CityRow>(...oneCityQuery(filter));
    if (!row) {
      throw ApiError.notFound('cities.noMatch');
    }
    return cityRowView(row);
  }

  async byOwner(uuid: string): Promise<CityView[]> {
    return (await this.reader.all<CityRow>(BY_OWNER_SQL, [uuid.toLowerCase()])).map(cityRowView);
  }

  /** The registered city entity, or 404. */
  async findRegistered(id: number): Promise<City> {
    const city = await this.cities.findOneBy({ id, state: 'active' });
    if (!city) {
      throw ApiError.notFound(msg('cities.notFound', { id }));
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
      throw ApiError.notFound(msg('cities.noCity', { id: cityId }));
    }
    return (await this.audit.history(cityId)).map(toHistoryView);
  }
}
