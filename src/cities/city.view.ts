import { isoTime } from '../database/transformers';
import type { Player } from '../players/player.entity';
import type { CityAuditEntry } from './city-audit.entity';
import type { City } from './city.entity';
import type { CityRequest, RequestedChanges } from './city-request.entity';
import type { Point } from './geometry';

export interface CornerView {
  id: number;
  x: string;
  z: string;
}

/** Contract section 4: the city object. */
export interface CityView {
  id: number;
  name: string;
  nameKana: string;
  summary: string | null;
  origin: string | null;
  corners: CornerView[];
  count: number;
  reason: string | null;
  remarks: string | null;
  owner: { uuid: string; mcid: string | null; chatid: string | null };
  /** A Date from an entity, ISO 8601 text from a row: the same JSON either way. */
  createdAt: Date | string;
  updatedAt: Date | string;
}

/**
 * A registered city as `CITY_ROW_SQL` selects it (owner joined): raw driver values, so numbers may
 * arrive as strings and DATETIME columns as text (SQLite) or Dates (MySQL).
 */
export interface CityRow {
  id: number | string;
  name: string;
  nameKana: string;
  summary: string | null;
  origin: string | null;
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

/** The columns of `CityRow`, for `FROM cities city LEFT JOIN players player ON player.uuid = city.owner_uuid`. */
export const CITY_ROW_COLUMNS =
  'city.id, city.name, city.name_kana AS nameKana, city.summary, city.origin, city.corners, city.block_count AS blockCount, ' +
  'city.reason, city.remarks, city.owner_uuid AS ownerUuid, player.mcid AS ownerMcid, player.chatid AS ownerChatid, ' +
  'city.created_at AS createdAt, city.updated_at AS updatedAt';

export interface CityRequestView {
  id: number;
  type: CityRequest['type'];
  status: CityRequest['status'];
  cityId: number;
  requester: { uuid: string; mcid: string | null };
  changes: Omit<RequestedChanges, 'corners'> & { corners?: CornerView[] };
  remarks: string | null;
  createdAt: Date;
  decidedAt: Date | null;
  rejectReason: string | null;
}

export interface HistoryEntryView {
  id: number;
  action: CityAuditEntry['action'];
  actor: string;
  requestId: number | null;
  before: unknown;
  after: unknown;
  at: Date;
}

/** Corner coordinates leave as integer strings, as interface.md shows them. */
export function cornersView(corners: Point[]): CornerView[] {
  return corners.map((corner, index) => ({ id: index + 1, x: String(corner.x), z: String(corner.z) }));
}

/** The city object of contract 4 from a `CityRow` (no entity hydration). */
export function cityRowView(row: CityRow): CityView {
  const corners = JSON.parse(row.corners) as Array<[number, number]>;
  return {
    id: Number(row.id),
    name: row.name,
    nameKana: row.nameKana,
    summary: row.summary,
    origin: row.origin,
    corners: corners.map(([x, z], index) => ({ id: index + 1, x: String(x), z: String(z) })),
    count: Number(row.blockCount),
    reason: row.reason,
    remarks: row.remarks,
    owner: { uuid: row.ownerUuid, mcid: row.ownerMcid ?? null, chatid: row.ownerChatid ?? null },
    createdAt: isoTime(row.createdAt)!,
    updatedAt: isoTime(row.updatedAt)!,
  };
}

export function changesView(changes: RequestedChanges): CityRequestView['changes'] {
  const { corners, ...rest } = changes;
  return corners ? { ...rest, corners: cornersView(corners) } : rest;
}

export function toRequestView(request: CityRequest, requester: Pick<Player, 'uuid' | 'mcid'> | undefined): CityRequestView {
  return {
    id: request.id,
    type: request.type,
    status: request.status,
    cityId: request.cityId,
    requester: { uuid: request.requesterUuid, mcid: requester?.mcid ?? null },
    changes: changesView(request.changes),
    remarks: request.remarks,
    createdAt: request.createdAt,
    decidedAt: request.decidedAt,
    rejectReason: request.rejectReason,
  };
}

export function toHistoryView(entry: CityAuditEntry): HistoryEntryView {
  return { id: entry.id, action: entry.action, actor: entry.actor, requestId: entry.requestId, before: entry.before, after: entry.after, at: entry.at };
}

/** What the audit trail records of a city: its state and every field a request can change. */
export function citySnapshot(city: City): Record<string, unknown> {
  return {
    state: city.state,
    name: city.name,
    nameKana: city.nameKana,
    summary: city.summary,
    origin: city.origin,
    corners: cornersView(city.corners),
    count: city.blockCount,
    reason: city.reason,
    remarks: city.remarks,
    ownerUuid: city.ownerUuid,
  };
}

export function requestSnapshot(request: CityRequest): Record<string, unknown> {
  return {
    id: request.id,
    type: request.type,
    status: request.status,
    requesterUuid: request.requesterUuid,
    changes: changesView(request.changes),
    rejectReason: request.rejectReason,
  };
}
