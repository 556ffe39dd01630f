import { ApiError, detail } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { checkCityName, checkCityNameKana } from './city-name';
import type { RequestedChanges } from './city-request.entity';
import { blockCount, boundingBox, BoundingBox, parseCorners, Point } from './geometry';
import type { CreateCityDto, EditCityDto } from './dto/city.dto';

export interface BlockLimits {
  limit: number;
  max: number;
}

export interface NameDraft {
  value: string;
  key: string;
}

export interface RegionDraft {
  corners: Point[];
  count: number;
  reason: string | null;
  box: BoundingBox;
}

export interface CreateDraft {
  name: NameDraft;
  kana: NameDraft;
  /** Lower-cased; null when absent or "". */
  regionName: string | null;
  summary: string | null;
  origin: string | null;
  remarks: string | null;
  region: RegionDraft;
}

/** Every change field of an edit, each valid on its own; not yet compared with the city or combined. */
export interface EditFields {
  name?: NameDraft;
  kana?: NameDraft;
  summary?: string;
  origin?: string;
  /** Lower-cased; `""` clears it. */
  regionName?: string;
  region?: RegionDraft;
  remarks: string | null;
}

export type EditDraft =
  | { type: 'region'; region: RegionDraft; remarks: string | null }
  | { type: 'update'; name?: NameDraft; kana?: NameDraft; summary?: string; origin?: string; regionName?: string; remarks: string | null };

/** What an edit is compared with: the city as the public read shows it. */
export interface CurrentCity {
  name: string;
  nameKana: string;
  summary: string | null;
  origin: string | null;
  regionName: string | null;
  corners: Array<{ x: string; z: string }>;
}

/** The information fields of an edit, in the order messages name them. */
const INFO_FIELDS = ['cityName', 'cityNameKana', 'summary', 'origin', 'regionName'] as const;

const REGION_NAME = /^[a-z0-9_-]{1,32}$/;

function emptyToNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

function name(raw: string): NameDraft {
  const result = checkCityName(raw);
  if (!result.ok) {
    throw ApiError.invalidField('cityName', result.reason);
  }
  return { value: result.value, key: result.key };
}

function kana(raw: string): NameDraft {
  const result = checkCityNameKana(raw);
  if (!result.ok) {
    throw ApiError.invalidField('cityNameKana', result.reason);
  }
  return { value: result.value, key: result.key };
}

/** `regionName` (docs/api.md, City rules): stored trimmed and lower-cased; `""` stays `""` (absent on create, "clear" on edit). */
export function checkRegionName(raw: string): string {
  const value = raw.trim().toLowerCase();
  if (value !== '' && !REGION_NAME.test(value)) {
    throw ApiError.invalidField('regionName', 'cities.regionName.format');
  }
  return value;
}

/** corners + count (+ reason): a valid polygon whose block count matches and respects the limits. */
export function checkRegion(input: { corners?: unknown[]; count?: number; reason?: string }, limits: BlockLimits): RegionDraft {
  if (input.corners === undefined) {
    throw ApiError.invalidField('corners', 'cities.corners.requiredWithCount');
  }
  if (input.count === undefined) {
    throw ApiError.invalidField('count', 'cities.count.requiredWithCorners');
  }
  const parsed = parseCorners(input.corners);
  if (!parsed.ok) {
    throw ApiError.invalidField('corners', parsed.reason);
  }
  const computed = blockCount(parsed.corners);
  if (input.count !== computed) {
    throw ApiError.invalidField('count', msg('cities.count.mismatch', { computed }));
  }
  if (computed > limits.max) {
    throw ApiError.invalidField('count', msg('cities.count.overMax', { max: limits.max, computed }));
  }
  const reason = emptyToNull(input.reason);
  if (computed > limits.limit && reason === null) {
    throw ApiError.invalidField('reason', msg('cities.reason.required', { limit: limits.limit }));
  }
  return { corners: parsed.corners, count: computed, reason, box: boundingBox(parsed.corners) };
}

/** Everything Create City checks before credentials, CAPTCHA or the database are involved. */
export function checkCreateInput(input: CreateCityDto, limits: BlockLimits): CreateDraft {
  return {
    name: name(input.cityName),
    kana: kana(input.cityNameKana),
    regionName: emptyToNull(input.regionName === undefined ? undefined : checkRegionName(input.regionName)),
    summary: emptyToNull(input.summary),
    origin: emptyToNull(input.origin),
    remarks: emptyToNull(input.remarks),
    region: checkRegion(input, limits),
  };
}

/** Update City, each field on its own: at least one change field; count and reason only with corners. */
export function checkEditFields(input: EditCityDto, limits: BlockLimits): EditFields {
  if (input.corners === undefined) {
    for (const field of ['count', 'reason'] as const) {
      if (input[field] !== undefined) {
        throw ApiError.invalidField(field, msg('cities.edit.onlyWithCorners', { field }));
      }
    }
  }
  if (input.corners === undefined && INFO_FIELDS.every((field) => input[field] === undefined)) {
    throw nothingToChange();
  }
  return {
    ...(input.cityName !== undefined ? { name: name(input.cityName) } : {}),
    ...(input.cityNameKana !== undefined ? { kana: kana(input.cityNameKana) } : {}),
    ...(input.summary !== undefined ? { summary: input.summary } : {}),
    ...(input.origin !== undefined ? { origin: input.origin } : {}),
    ...(input.regionName !== undefined ? { regionName: checkRegionName(input.regionName) } : {}),
    ...(input.corners !== undefined ? { region: checkRegion(input, limits) } : {}),
    remarks: emptyToNull(input.remarks),
  };
}

/**
 * A field equal to the city's current value is not a change. Names compare as
 * stored (trimmed; a case change is a change), `""` equals a stored null, corners are equal as the
 * same coordinates in the same order (and take count and reason with them).
 */
export function withoutUnchanged(fields: EditFields, city: CurrentCity): EditFields {
  const { name: newName, kana: newKana, summary, origin, regionName, region, remarks } = fields;
  return {
    ...(newName && newName.value !== city.name ? { name: newName } : {}),
    ...(newKana && newKana.value !== city.nameKana ? { kana: newKana } : {}),
    ...(summary !== undefined && summary !== (city.summary ?? '') ? { summary } : {}),
    ...(origin !== undefined && origin !== (city.origin ?? '') ? { origin } : {}),
    ...(regionName !== undefined && regionName !== (city.regionName ?? '') ? { regionName } : {}),
    ...(region && !sameCorners(region.corners, city.corners) ? { region } : {}),
    remarks,
  };
}

function sameCorners(corners: Point[], current: CurrentCity['corners']): boolean {
  return corners.length === current.length && corners.every((corner, index) => String(corner.x) === current[index].x && String(corner.z) === current[index].z);
}

/** The change an edit asks for: corners (with count and reason) alone, or information fields; remarks may join either. */
export function editDraft(fields: EditFields): EditDraft {
  const { region, remarks, ...info } = fields;
  const infoFields = INFO_FIELDS.filter((field) => info[INFO_KEYS[field]] !== undefined);
  if (region) {
    if (infoFields.length > 0) {
      throw ApiError.invalidField('corners', msg('cities.corners.alone', { fields: infoFields }));
    }
    return { type: 'region', region, remarks };
  }
  if (infoFields.length === 0) {
    throw nothingToChange('cities.edit.unchanged');
  }
  return { type: 'update', ...info, remarks };
}

const INFO_KEYS = { cityName: 'name', cityNameKana: 'kana', summary: 'summary', origin: 'origin', regionName: 'regionName' } as const;

function nothingToChange(message: 'cities.edit.nothing' | 'cities.edit.unchanged' = 'cities.edit.nothing'): ApiError {
  return ApiError.badRequest(message, [detail('cityName', 'cities.edit.nothing.detail')]);
}

/** The changes an edit asks for, as stored on the request. */
export function editChanges(draft: EditDraft): RequestedChanges {
  if (draft.type === 'region') {
    const { corners, count, reason } = draft.region;
    return { corners, count, ...(reason !== null ? { reason } : {}), ...(draft.remarks !== null ? { remarks: draft.remarks } : {}) };
  }
  return {
    ...(draft.name ? { cityName: draft.name.value } : {}),
    ...(draft.kana ? { cityNameKana: draft.kana.value } : {}),
    ...(draft.summary !== undefined ? { summary: draft.summary } : {}),
    ...(draft.origin !== undefined ? { origin: draft.origin } : {}),
    ...(draft.regionName !== undefined ? { regionName: draft.regionName } : {}),
    ...(draft.remarks !== null ? { remarks: draft.remarks } : {}),
  };
}
