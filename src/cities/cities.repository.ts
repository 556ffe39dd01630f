import { Injectable } from '@nestjs/common';
import { DataTopic, DataVersions } from '../database/data-versions';
import { ReadCache } from '../database/read-cache';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime, isoTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import { cornersColumn, type CityState } from './city.entity';
import type { CityRecord, NewCity, RegionClaim } from './city.records';
import type { CityView } from './city.view';
import { cornersView } from './city.view';
import type { BoundingBox } from './geometry';

/** The key columns the uniqueness rules read: cityName, cityNameKana, regionName. */
export type NameColumn = 'name_key' | 'kana_key' | 'region_key';

/** A registered city with its owner's current names, as the hot reads select it. */
export interface CityViewRow {
  id: number;
  name: string;
  nameKana: string;
  summary: string | null;
  origin: string | null;
  regionName: string | null;
  corners: string;
  blockCount: number;
  reason: string | null;
  remarks: string | null;
  ownerUuid: string;
  ownerMcid: string | null;
  ownerChatid: string | null;
  createdAt: DbTime;
  updatedAt: DbTime;
}

/** A whole `cities` row as the driver returns it (corners as JSON text, DATETIME text on SQLite). */
type CityRecordRow = Omit<CityRecord, 'corners' | 'createdAt' | 'updatedAt'> & { corners: string; createdAt: DbTime; updatedAt: DbTime };

const WRITTEN_COLUMNS =
  'state, owner_uuid, name, name_kana, name_key, kana_key, region_name, region_key, summary, origin, reason, remarks, corners, block_count, ' +
  'min_x, max_x, min_z, max_z, created_at, updated_at';

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
  // IDX_cities_owner_state: every city of an owner, whatever its state (the moderation API's player page).
  statesByOwner: 'SELECT id, name, state FROM cities WHERE owner_uuid = ? ORDER BY id ASC',
  record: `SELECT ${RECORD_COLUMNS} FROM cities city WHERE city.id = ?`,
  viewAnyState: `SELECT ${VIEW_COLUMNS} FROM cities city LEFT JOIN players player ON player.uuid = city.owner_uuid WHERE city.id = ?`,
  registeredRecord: `SELECT ${RECORD_COLUMNS} FROM cities city WHERE city.id = ? AND city.state = 'active'`,
  nameHolder: (column: NameColumn) => `SELECT city.id, city.name FROM cities city WHERE city.${column} = ? AND city.id <> ?`,
  claimedInBox: `SELECT city.id, city.name, city.corners FROM cities city WHERE ${CLAIMING} AND city.min_x <= ? AND city.max_x >= ? AND city.min_z <= ? AND city.max_z >= ? AND city.id <> ?`,
  countClaimedByOwner: `SELECT COUNT(*) AS count FROM cities city WHERE city.owner_uuid = ? AND ${CLAIMING}`,
  insert: `INSERT INTO cities (${WRITTEN_COLUMNS}) VALUES (${WRITTEN_COLUMNS.split(',').map(() => '?').join(', ')})`,
  insertWithId: `INSERT INTO cities (id, ${WRITTEN_COLUMNS}) VALUES (?, ${WRITTEN_COLUMNS.split(',').map(() => '?').join(', ')})`,
  update: `UPDATE cities SET ${WRITTEN_COLUMNS.split(', ').map((column) => `${column} = ?`).join(', ')} WHERE id = ?`,
};

/** What a city view shows: the city, and its owner's game id and chat id (those bump `city-owners`, other player writes do not). */
export const CITY_VIEW_TOPICS: readonly DataTopic[] = ['cities', 'city-owners'];

/**
 * Every query of the `cities` table, and its one writer: each write bumps `cities` in the caller's
 * transaction. Only registered (`active`) cities are visible to the public reads.
 */
@Injectable()
export class CitiesRepository {
  /** `GET /cities/{id}` and `GET /cities/{uuid}` are hot reads; a city view changes with its city or its owner's names. */
  private readonly byId: ReadCache<CityView | undefined>;
  private readonly byOwner: ReadCache<CityView[]>;

  constructor(
    private readonly reader: SqlReader,
    private readonly versions: DataVersions,
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
  /** Every city an owner has or had (pending, active, rejected, deleted), by id. */
  async getStatesByOwner(ownerUuid: string): Promise<Array<{ id: number; name: string; state: CityState }>> {
    return (await this.reader.all<{ id: number; name: string; state: CityState }>(SQL.statesByOwner, [ownerUuid])).map((row) => ({ id: Number(row.id), name: row.name, state: row.state }));
  }

  async exists(id: number): Promise<boolean> {
    return (await this.reader.one(SQL.exists, [id])) !== undefined;
  }

  /** The city in any state, inside the transaction. */
  async getRecord(tx: Transaction, id: number): Promise<CityRecord | undefined> {
    return recordOf(await tx.one<CityRecordRow>(SQL.record, [id]));
  }

  /** The city object of any city (pending, rejected, deleted too) as the transaction sees it: for events (docs/events-and-webhooks.md, Event types). */
  async getViewIn(tx: Transaction, id: number): Promise<CityView | undefined> {
    return viewOf(await tx.one<CityViewRow>(SQL.viewAnyState, [id]));
  }

  /** The registered city, inside the transaction. */
  async getRegisteredRecord(tx: Transaction, id: number): Promise<CityRecord | undefined> {
    return recordOf(await tx.one<CityRecordRow>(SQL.registeredRecord, [id]));
  }

  /** The registered city or pending create (other than `exceptCityId`) that holds the key. */
  async getNameHolder(tx: Transaction, column: NameColumn, key: string, exceptCityId?: number): Promise<{ id: number; name: string } | undefined> {
    return tx.one<{ id: number; name: string }>(SQL.nameHolder(column), [key, exceptCityId ?? NO_ID]);
  }

  /** The regions of registered cities and pending creates whose bounding box meets `box` (indexed prefilter). */
  async getClaimedRegionsInBox(tx: Transaction, box: BoundingBox, exceptCityId?: number): Promise<RegionClaim[]> {
    const rows = await tx.all<{ id: number; name: string; corners: string }>(SQL.claimedInBox, [box.maxX, box.minX, box.maxZ, box.minZ, exceptCityId ?? NO_ID]);
    return rows.map((row) => ({ cityId: row.id, name: row.name, corners: cornersColumn.from(row.corners) }));
  }

  /** Registered cities and pending creates of one owner. */
  async countClaimedByOwner(tx: Transaction, ownerUuid: string): Promise<number> {
    const row = await tx.one<{ count: number }>(SQL.countClaimedByOwner, [ownerUuid]);
    return row?.count ?? 0;
  }

  async insert(tx: Transaction, city: NewCity): Promise<number> {
    await this.versions.bump(tx, 'cities');
    const { insertId } = await tx.run(SQL.insert, writtenValues(tx, city));
    return insertId!;
  }

  /**
   * A city that keeps an id given elsewhere (the original service's, by `import:original`). Both
   * databases move their id sequence past it, so cities made later get higher ids.
   */
  async insertWithId(tx: Transaction, city: CityRecord): Promise<void> {
    await this.versions.bump(tx, 'cities');
    await tx.run(SQL.insertWithId, [city.id, ...writtenValues(tx, city)]);
  }

  /** Writes every field of the record (the caller changed some of them). */
  async save(tx: Transaction, city: CityRecord): Promise<void> {
    await this.versions.bump(tx, 'cities');
    await tx.run(SQL.update, [...writtenValues(tx, city), city.id]);
  }
}

/** The values of WRITTEN_COLUMNS, in its order. */
function writtenValues(tx: Transaction, city: NewCity): unknown[] {
  return [
    city.state,
    city.ownerUuid,
    city.name,
    city.nameKana,
    city.nameKey,
    city.kanaKey,
    city.regionName,
    city.regionKey,
    city.summary,
    city.origin,
    city.reason,
    city.remarks,
    cornersColumn.to(city.corners),
    city.blockCount,
    city.minX,
    city.maxX,
    city.minZ,
    city.maxZ,
    tx.time(city.createdAt),
    tx.time(city.updatedAt),
  ];
}

function viewOf(row: CityViewRow | undefined): CityView | undefined {
  return row ? toCityView(row) : undefined;
}

function recordOf(row: CityRecordRow | undefined): CityRecord | undefined {
  return row ? toCityRecord(row) : undefined;
}

/** The city object (docs/api.md, Cities): the one mapping of a view row. */
export function toCityView(row: CityViewRow): CityView {
  return {
    id: row.id,
    name: row.name,
    nameKana: row.nameKana,
    summary: row.summary,
    origin: row.origin,
    regionName: row.regionName,
    corners: cornersView(cornersColumn.from(row.corners)),
    count: row.blockCount,
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
    corners: cornersColumn.from(row.corners),
    createdAt: dateOf(row.createdAt),
    updatedAt: dateOf(row.updatedAt),
  };
}
