import { Injectable } from '@nestjs/common';
import { DataVersions } from '../database/data-versions';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime, isoTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import { changesColumn, RequestStatus, RequestType } from './city-request.entity';
import { changesView, CityRequestView } from './city.view';
import type { CityRequestRecord, NewCityRequest, RegionClaim } from './city.records';
import type { BoundingBox } from './geometry';
import { Page, pageOf, PageQuery } from './page';

/** What a decision writes; the request stops being pending (its pending key is cleared). */
export interface RequestDecision {
  status: 'approved' | 'rejected';
  decidedAt: Date;
  decidedBy: string;
  rejectReason: string | null;
}

export interface RequestFilter {
  status: RequestStatus;
  type?: RequestType;
  cityId?: number;
}

/** A whole `city_requests` row as the driver returns it (changes as JSON text, DATETIME text on SQLite). */
type RequestRow = Omit<CityRequestRecord, 'changes' | 'createdAt' | 'decidedAt'> & { changes: string; createdAt: DbTime; decidedAt: DbTime | null };

const WRITTEN_COLUMNS =
  'city_id, type, status, pending_key, changes, requester_uuid, remarks, min_x, max_x, min_z, max_z, created_at, decided_at, decided_by, reject_reason';
const PLACES = WRITTEN_COLUMNS.split(',').map(() => '?').join(', ');

/** A request row with its requester's current game id and its city's name. */
type RequestViewRow = RequestRow & { requesterMcid: string | null; cityName: string };

const COLUMNS =
  'request.id, request.city_id AS cityId, request.type, request.status, request.pending_key AS pendingKey, request.changes, ' +
  'request.requester_uuid AS requesterUuid, request.remarks, request.min_x AS minX, request.max_x AS maxX, request.min_z AS minZ, ' +
  'request.max_z AS maxZ, request.created_at AS createdAt, request.decided_at AS decidedAt, request.decided_by AS decidedBy, ' +
  'request.reject_reason AS rejectReason';

const SELECT = `SELECT ${COLUMNS} FROM city_requests request`;
const SELECT_VIEW =
  `SELECT ${COLUMNS}, requester.mcid AS requesterMcid, city.name AS cityName FROM city_requests request ` +
  'JOIN cities city ON city.id = request.city_id LEFT JOIN players requester ON requester.uuid = request.requester_uuid';

/** Paging (docs/api.md, Requests and responses): ids after `after`, oldest first, one row more than the page holds. */
const PAGE = ' AND request.id > ? ORDER BY request.id ASC LIMIT ?';

/** No real id is 0: one SQL text serves "except this one" and "except none". */
const NO_ID = 0;

const SQL = {
  byId: `${SELECT} WHERE request.id = ?`,
  viewById: `${SELECT_VIEW} WHERE request.id = ?`,
  pending: `${SELECT} WHERE request.city_id = ? AND request.type = ? AND request.status = 'pending'`,
  pendingOfCity: `${SELECT} WHERE request.city_id = ? AND request.status = 'pending' ORDER BY request.id ASC`,
  pendingRegionsInBox:
    'SELECT request.city_id AS cityId, city.name, request.changes FROM city_requests request JOIN cities city ON city.id = request.city_id ' +
    "WHERE request.type = 'region' AND request.status = 'pending' " +
    'AND request.min_x <= ? AND request.max_x >= ? AND request.min_z <= ? AND request.max_z >= ? AND request.city_id <> ? AND request.id <> ?',
  /** One fixed text per filter shape, so prepared statements are reused. */
  views: (filter: RequestFilter) =>
    `${SELECT_VIEW} WHERE request.status = ?${filter.type ? ' AND request.type = ?' : ''}${filter.cityId !== undefined ? ' AND request.city_id = ?' : ''}${PAGE}`,
  // Served by IDX_city_requests_requester.
  viewsByRequester: `${SELECT_VIEW} WHERE request.requester_uuid = ?${PAGE}`,
  insert: `INSERT INTO city_requests (${WRITTEN_COLUMNS}) VALUES (${PLACES})`,
  insertWithId: `INSERT INTO city_requests (id, ${WRITTEN_COLUMNS}) VALUES (?, ${PLACES})`,
  decide: 'UPDATE city_requests SET status = ?, decided_at = ?, decided_by = ?, reject_reason = ?, pending_key = NULL WHERE id = ?',
};

/** Every query of the `city_requests` table, and its one writer: each write bumps `cities` (a city's pending requests are part of what city reads answer). */
@Injectable()
export class CityRequestsRepository {
  constructor(
    private readonly reader: SqlReader,
    private readonly versions: DataVersions,
  ) {}

  /** A page of the requests with that status (and type, city), oldest first. */
  async getViews(filter: RequestFilter, page: PageQuery): Promise<Page<CityRequestView>> {
    const parameters = [filter.status, ...(filter.type ? [filter.type] : []), ...(filter.cityId !== undefined ? [filter.cityId] : [])];
    return this.viewPage(SQL.views(filter), parameters, page);
  }

  /** A page of the requests one player filed, every status, oldest first. */
  getViewsByRequester(requesterUuid: string, page: PageQuery): Promise<Page<CityRequestView>> {
    return this.viewPage(SQL.viewsByRequester, [requesterUuid], page);
  }

  private async viewPage(sql: string, parameters: unknown[], page: PageQuery): Promise<Page<CityRequestView>> {
    const rows = await this.reader.all<RequestViewRow>(sql, [...parameters, page.after, page.limit + 1]);
    return pageOf(rows.map(toRequestView), page.limit);
  }

  /** The request object as the transaction sees it: for events (docs/events-and-webhooks.md, Event types). */
  async getViewIn(tx: Transaction, id: number): Promise<CityRequestView | undefined> {
    const row = await tx.one<RequestViewRow>(SQL.viewById, [id]);
    return row ? toRequestView(row) : undefined;
  }

  async getById(tx: Transaction, id: number): Promise<CityRequestRecord | undefined> {
    return recordOf(await tx.one<RequestRow>(SQL.byId, [id]));
  }

  /** The pending request of that type for the city (at most one: the pending key is unique). */
  async getPending(tx: Transaction, cityId: number, type: RequestType): Promise<CityRequestRecord | undefined> {
    return recordOf(await tx.one<RequestRow>(SQL.pending, [cityId, type]));
  }

  async getPendingOfCity(tx: Transaction, cityId: number): Promise<CityRequestRecord[]> {
    return (await tx.all<RequestRow>(SQL.pendingOfCity, [cityId])).map(toRequestRecord);
  }

  /** The regions of pending region requests whose bounding box meets `box` (indexed prefilter), with their city's name. */
  async getPendingRegionsInBox(tx: Transaction, box: BoundingBox, except: { cityId?: number; requestId?: number }): Promise<RegionClaim[]> {
    const parameters = [box.maxX, box.minX, box.maxZ, box.minZ, except.cityId ?? NO_ID, except.requestId ?? NO_ID];
    const rows = await tx.all<{ cityId: number; name: string; changes: string }>(SQL.pendingRegionsInBox, parameters);
    return rows.flatMap((row) => {
      const { corners } = changesColumn.from(row.changes);
      return corners ? [{ cityId: row.cityId, name: row.name, corners }] : [];
    });
  }

  async insert(tx: Transaction, request: NewCityRequest): Promise<number> {
    await this.versions.bump(tx, 'cities');
    const { insertId } = await tx.run(SQL.insert, writtenValues(tx, request));
    return insertId!;
  }

  /** A request under an id its caller chose (`import:original` assigns ids itself, so a dry run reports the ids a real run creates). */
  async insertWithId(tx: Transaction, request: CityRequestRecord): Promise<void> {
    await this.versions.bump(tx, 'cities');
    await tx.run(SQL.insertWithId, [request.id, ...writtenValues(tx, request)]);
  }

  async decide(tx: Transaction, id: number, decision: RequestDecision): Promise<void> {
    await this.versions.bump(tx, 'cities');
    await tx.run(SQL.decide, [decision.status, tx.time(decision.decidedAt), decision.decidedBy, decision.rejectReason, id]);
  }
}

/** The values of WRITTEN_COLUMNS, in its order. */
function writtenValues(tx: Transaction, request: NewCityRequest): unknown[] {
  return [
    request.cityId,
    request.type,
    request.status,
    request.pendingKey,
    changesColumn.to(request.changes),
    request.requesterUuid,
    request.remarks,
    request.minX,
    request.maxX,
    request.minZ,
    request.maxZ,
    tx.time(request.createdAt),
    request.decidedAt === null ? null : tx.time(request.decidedAt),
    request.decidedBy,
    request.rejectReason,
  ];
}

function recordOf(row: RequestRow | undefined): CityRequestRecord | undefined {
  return row ? toRequestRecord(row) : undefined;
}

/** The one mapping of a whole row. */
function toRequestRecord(row: RequestRow): CityRequestRecord {
  return {
    ...row,
    changes: changesColumn.from(row.changes),
    createdAt: dateOf(row.createdAt),
    decidedAt: row.decidedAt === null ? null : dateOf(row.decidedAt),
  };
}

/** The request object operators read. */
function toRequestView(row: RequestViewRow): CityRequestView {
  const request = toRequestRecord(row);
  return {
    id: request.id,
    type: request.type,
    status: request.status,
    cityId: request.cityId,
    city: { id: request.cityId, name: row.cityName },
    requester: { uuid: request.requesterUuid, mcid: row.requesterMcid ?? null },
    changes: changesView(request.changes),
    remarks: request.remarks,
    createdAt: isoTime(request.createdAt)!,
    decidedAt: isoTime(request.decidedAt),
    decidedBy: request.decidedBy,
    rejectReason: request.rejectReason,
  };
}
