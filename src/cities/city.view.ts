import type { AuditAction } from './city-audit.entity';
import type { CityRecord, CityRequestRecord } from './city.records';
import type { RequestedChanges, RequestStatus, RequestType } from './city-request.entity';
import type { Point } from './geometry';

export interface CornerView {
  id: number;
  x: string;
  z: string;
}

/** The city object (docs/api.md, Cities). Times are ISO 8601 UTC text. */
export interface CityView {
  id: number;
  name: string;
  nameKana: string;
  summary: string | null;
  origin: string | null;
  regionName: string | null;
  corners: CornerView[];
  count: number;
  reason: string | null;
  remarks: string | null;
  owner: { uuid: string; mcid: string | null; chatid: string | null };
  createdAt: string;
  updatedAt: string;
}

export interface CityRequestView {
  id: number;
  type: RequestType;
  status: RequestStatus;
  cityId: number;
  /** The city's current name (the requested one for a create). */
  city: { id: number; name: string };
  requester: { uuid: string; mcid: string | null };
  changes: Omit<RequestedChanges, 'corners'> & { corners?: CornerView[] };
  remarks: string | null;
  createdAt: string;
  decidedAt: string | null;
  /** `apikey:<key name>` or `club:<uuid>`; null while pending. */
  decidedBy: string | null;
  rejectReason: string | null;
}

export interface HistoryEntryView {
  id: number;
  action: AuditAction;
  actor: string;
  requestId: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  at: string;
}

/** Corner coordinates leave as integer strings, as docs/api.md shows them. The one corners-to-view mapping. */
export function cornersView(corners: Point[]): CornerView[] {
  return corners.map((corner, index) => ({ id: index + 1, x: String(corner.x), z: String(corner.z) }));
}

export function changesView(changes: RequestedChanges): CityRequestView['changes'] {
  const { corners, ...rest } = changes;
  return corners ? { ...rest, corners: cornersView(corners) } : rest;
}

/** What the audit trail records of a city: its state and every field a request can change. */
export function citySnapshot(city: CityRecord): Record<string, unknown> {
  return {
    state: city.state,
    name: city.name,
    nameKana: city.nameKana,
    summary: city.summary,
    origin: city.origin,
    regionName: city.regionName,
    corners: cornersView(city.corners),
    count: city.blockCount,
    reason: city.reason,
    remarks: city.remarks,
    ownerUuid: city.ownerUuid,
  };
}

export function requestSnapshot(request: CityRequestRecord): Record<string, unknown> {
  return {
    id: request.id,
    type: request.type,
    status: request.status,
    requesterUuid: request.requesterUuid,
    changes: changesView(request.changes),
    rejectReason: request.rejectReason,
  };
}

/**
 * The earlier service's flat names (docs/api.md, City rules), carried beside the current ones by the three
 * single-city reads only.
 */
export interface LegacyCityFields {
  uuid: string;
  mcid: string | null;
  discordid: string | null;
  namekana: string;
  name_origin: string | null;
  regionname: string | null;
  blocknum: number;
}

export function withLegacyFields(city: CityView): CityView & LegacyCityFields {
  return {
    ...city,
    uuid: city.owner.uuid,
    mcid: city.owner.mcid,
    discordid: city.owner.chatid,
    namekana: city.nameKana,
    name_origin: city.origin,
    regionname: city.regionName,
    blocknum: city.count,
  };
}
