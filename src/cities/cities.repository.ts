import { Injectable } from '@nestjs/common';
import { DataTopic, DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { dateOf, isoTime } from '../database/transformers';
import type { Transaction } from '../database/unit-of-work';
import { City, cornersColumn } from './city.entity';
import type { CityRecord, NewCity, RegionClaim } from './city.records';
import type { CityView } from './city.view';
import { cornersView } from './city.view';
import type { BoundingBox } from './geometry';

/** The key columns the uniqueness rules read: cityName, cityNameKana, regionName. */
export type NameColumn = 'name_key' | 'kana_key' | 'region_key';

/** A registered city with its owner's current names, as the hot reads select it. */
export interface CityViewRow {
  id: number | string;
  name: string;
  nameKana: string;
  summary: string | null;
  origin: string | null;
  regionName: string | null;
  corners: string;
  blockCount: number | string;
  reason: string | null;
  remarks: string | null;
  ownerUuid: string;
  ownerMcid: string | null;
  ownerChatid: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** A whole `cities` row: raw driver values (numbers may be text on MySQL, DATETIME text on SQLite). */
type CityRecordRow = Omit<CityRecord, 'id' | 'corners' | 'blockCount' | 'minX' | 'maxX' | 'minZ' | 'maxZ' | 'createdAt' | 'updatedAt'> & {
  id: number | string;
  corners: string;
  blockCount: number | string;
  minX: number | string;
  maxX: number | string;
  minZ: number | string;
  maxZ: number | string;
  createdAt: Date | string;
  updatedAt: Date | string;
};

const VIEW_COLUMNS =
  'city.id, city.name, city.name_kana AS nameKana, city.summary, city.origin, city.region_name AS regionName, city.corners, city.block_count AS blockCount, ' +
  'city.reason, city.remarks, city.owner_uuid AS ownerUuid, player.mcid AS ownerMcid, player.chatid AS ownerChatid, ' +
  'city.created_at AS createdAt, city.updated_at AS updatedAt';

/** Registered cities with their owner's current names; each read adds its condition (and order). */
const REGISTERED = `SELECT ${VIEW_COLUMNS} FROM cities city LEFT JOIN players player ON player.uuid = city.owner_uuid WHERE city.state = 'active'`;

const RECORD_COLUMNS =
  'city.id, city.state, city.owner_uuid AS ownerUuid, city.name, city.name_kana AS nameKana, city.name_key AS nameKey, ' +
  'city.kana_key AS kanaKey, city.region_name AS regionName, city.region_key AS regionKey, city.summary, city.origin, city.reason, city.remarks, city.corners, city.block_count AS blockCount, ' +
  'city.min_x AS minX, city.max_x AS maxX, city.min_z AS minZ, city.max_z AS maxZ, city.created_at AS createdAt, city.updated_at AS updatedAt';

/** Cities that hold a name and a region: registered ones and pending creates. */
const CLAIMING = "city.state IN ('pending', 'active')";

/** No real id is 0: a fixed SQL text (one prepared statement) serves "except this city" and "except none". */
const NO_ID = 0;

const SQL = {
  all: `${REGISTERED} ORDER BY city.id ASC`,
  byId: `${REGISTERED} AND city.id = ?`,
  byNameKey: `${REGISTERED} AND city.name_key = ?`,
  byIdAndNameKey: `${REGISTERED} AND city.id = ? AND city.name_key = ?`,
  // Served by IDX_cities_owner_state.
  byOwner: `${REGISTERED} AND city.owner_uuid = ? ORDER BY city.id ASC`,
  exists: 'SELECT 1 AS found FROM cities WHERE id = ?',
  record: `SELECT ${RECORD_COLUMNS} FROM cities city WHERE city.id = ?`,
  viewAnyState: `SELECT ${VIEW_COLUMNS} FROM cities city LEFT JOIN players player ON player.uuid = city.owner_uuid WHERE city.id = ?`,
  registeredRecord: `SELECT ${RECORD_COLUMNS} FROM cities city WHERE city.id = ? AND city.state = 'active'`,
  nameHolder: (column: NameColumn) => `SELECT city.id, city.name FROM cities city WHERE city.${column} = ? AND city.id <> ?`,
  claimedInBox: `SELECT city.id, city.name, city.corners FROM cities city WHERE ${CLAIMING} AND city.min_x <= ? AND city.max_x >= ? AND city.min_z <= ? AND city.max_z >= ? AND city.id <> ?`,
  countClaimedByOwner: `SELECT COUNT(*) AS count FROM cities city WHERE city.owner_uuid = ? AND ${CLAIMING}`,
};

/** What a city view shows: the city, and its owner's game id and chat id (those bump `city-owners`, other player writes do not). */
export const CITY_VIEW_TOPICS: readonly DataTopic[] = ['cities', 'city-owners'];

/** Every query of the `cities` table. Only registered (`active`) cities are visible to the public reads. */
@Injectable()
export class CitiesRepository {
  /** `GET /cities/{id}` and `GET /cities/{uuid}` are hot reads; a city view changes with its city or its owner's names. */
  private readonly byId: ReadCache<CityView | undefined>;
  private readonly byOwner: ReadCache<CityView[]>;

  constructor(
    private readonly reader: SqlReader,
    versions: DataVersions,
  ) {
    this.byId = new ReadCache(versions, CITY_VIEW_TOPICS);
    this.byOwner = new ReadCache(versions, CITY_VIEW_TOPICS);
  }

  async getAll(): Promise<CityView[]> {
    return (await this.reader.all<CityViewRow>(SQL.all)).map(toCityView);
  }

  /** Cached; the view is shared, not to be mutated. */
  getById(id: number): Promise<CityView | undefined> {
    return this.byId.get(String(id), async () => viewOf(await this.reader.one<CityViewRow>(SQL.byId, [id])));
  }

  async getByNameKey(nameKey: string): Promise<CityView | undefined> {
    return viewOf(await this.reader.one<CityViewRow>(SQL.byNameKey, [nameKey]));
  }

  async getByIdAndNameKey(id: number, nameKey: string): Promise<CityView | undefined> {
    return viewOf(await this.reader.one<CityViewRow>(SQL.byIdAndNameKey, [id, nameKey]));
  }

  /** Cached; the views are shared, not to be mutated. */
  getByOwner(ownerUuid: string): Promise<CityView[]> {
    return this.byOwner.get(ownerUuid, async () => (await this.reader.all<CityViewRow>(SQL.byOwner, [ownerUuid])).map(toCityView));
  }

  /** Whether a city with that id ever existed (any state). */
  async exists(id: number): Promise<boolean> {
    return (await this.reader.one(SQL.exists, [id])) !== undefined;
  }

  /** The city in any state, inside the transaction. */
  async getRecord(tx: Transaction, id: number): Promise<CityRecord | undefined> {
    return recordOf(await tx.query<CityRecordRow[]>(SQL.record, [id]));
  }

  /** The city object of any city (pending, rejected, deleted too) as the transaction sees it: for events (docs/events-and-webhooks.md, Event types). */
  async getViewIn(tx: Transaction, id: number): Promise<CityView | undefined> {
    return viewOf((await tx.query<CityViewRow[]>(SQL.viewAnyState, [id]))[0]);
  }

  /** The registered city, inside the transaction. */
  async getRegisteredRecord(tx: Transaction, id: number): Promise<CityRecord | undefined> {
    return recordOf(await tx.query<CityRecordRow[]>(SQL.registeredRecord, [id]));
  }

  /** The registered city or pending create (other than `exceptCityId`) that holds the key. */
  async getNameHolder(tx: Transaction, column: NameColumn, key: string, exceptCityId?: number): Promise<{ id: number; name: string } | undefined> {
    const [row] = await tx.query<Array<{ id: number | string; name: string }>>(SQL.nameHolder(column), [key, exceptCityId ?? NO_ID]);
    return row ? { id: Number(row.id), name: row.name } : undefined;
  }

  /** The regions of registered cities and pending creates whose bounding box meets `box` (indexed prefilter). */
  async getClaimedRegionsInBox(tx: Transaction, box: BoundingBox, exceptCityId?: number): Promise<RegionClaim[]> {
    const rows = await tx.query<Array<{ id: number | string; name: string; corners: string }>>(SQL.claimedInBox, [box.maxX, box.minX, box.maxZ, box.minZ, exceptCityId ?? NO_ID]);
    return rows.map((row) => ({ cityId: Number(row.id), name: row.name, corners: cornersColumn.from(row.corners) }));
  }

  /** Registered cities and pending creates of one owner. */
  async countClaimedByOwner(tx: Transaction, ownerUuid: string): Promise<number> {
    const [row] = await tx.query<Array<{ count: number | string }>>(SQL.countClaimedByOwner, [ownerUuid]);
    return Number(row?.count ?? 0);
  }

  async insert(tx: Transaction, city: NewCity): Promise<number> {
    const inserted = await tx.insert(City, city);
    return Number(inserted.identifiers[0]?.id);
  }

  /**
   * A city that keeps an id given elsewhere (the original service's, by `import:original`). Both
   * databases move their id sequence past it, so cities made later get higher ids.
   */
  async insertWithId(tx: Transaction, city: CityRecord): Promise<void> {
    await tx.insert(City, city);
  }

  /** Writes every field of the record (the caller changed some of them). */
  async save(tx: Transaction, city: CityRecord): Promise<void> {
    const { id, ...fields } = city;
    await tx.update(City, { id }, fields);
  }
}

function viewOf(row: CityViewRow | undefined): CityView | undefined {
  return row ? toCityView(row) : undefined;
}

function recordOf(rows: CityRecordRow[]): CityRecord | undefined {
  return rows[0] ? toCityRecord(rows[0]) : undefined;
}

/** The city object (docs/api.md, Cities): the one mapping of a view row. */
export function toCityView(row: CityViewRow): CityView {
  return {
    id: Number(row.id),
    name: row.name,
    nameKana: row.nameKana,
    summary: row.summary,
    origin: row.origin,
    regionName: row.regionName,
    corners: cornersView(cornersColumn.from(row.corners)),
    count: Number(row.blockCount),
    reason: row.reason,
    remarks: row.remarks,
    owner: { uuid: row.ownerUuid, mcid: row.ownerMcid ?? null, chatid: row.ownerChatid ?? null },
    createdAt: isoTime(row.createdAt)!,
    updatedAt: isoTime(row.updatedAt)!,
  };
}

/** The one mapping of a whole row. */
function toCityRecord(row: CityRecordRow): CityRecord {
  return {
    ...row,
    id: Number(row.id),
    corners: cornersColumn.from(row.corners),
    blockCount: Number(row.blockCount),
    minX: Number(row.minX),
    maxX: Number(row.maxX),
    minZ: Number(row.minZ),
    maxZ: Number(row.maxZ),
    createdAt: dateOf(row.createdAt),
    updatedAt: dateOf(row.updatedAt),
  };
}
