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
  summary: string | null;
  origin: string | null;
  remarks: string | null;
  region: RegionDraft;
}

export type EditDraft =
  | { type: 'region'; region: RegionDraft; remarks: string | null }
  | { type: 'update'; name?: NameDraft; kana?: NameDraft; summary?: string; origin?: string; remarks: string | null };

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
    summary: emptyToNull(input.summary),
    origin: emptyToNull(input.origin),
    remarks: emptyToNull(input.remarks),
    region: checkRegion(input, limits),
  };
}

/** Update City: at least one change; corners (with count and reason) only alone; remarks may join either. */
export function checkEditInput(input: EditCityDto, limits: BlockLimits): EditDraft {
  const infoFields = (['cityName', 'cityNameKana', 'summary', 'origin'] as const).filter((field) => input[field] !== undefined);
  const remarks = emptyToNull(input.remarks);
  if (input.corners !== undefined) {
    if (infoFields.length > 0) {
      throw ApiError.invalidField('corners', msg('cities.corners.alone', { fields: infoFields }));
    }
    return { type: 'region', region: checkRegion(input, limits), remarks };
  }
  for (const field of ['count', 'reason'] as const) {
    if (input[field] !== undefined) {
      throw ApiError.invalidField(field, msg('cities.edit.onlyWithCorners', { field }));
    }
  }
  if (infoFields.length === 0) {
    throw ApiError.badRequest('cities.edit.nothing', [detail('cityName', 'cities.edit.nothing.detail')]);
  }
  return {
    type: 'update',
    ...(input.cityName !== undefined ? { name: name(input.cityName) } : {}),
    ...(input.cityNameKana !== undefined ? { kana: kana(input.cityNameKana) } : {}),
    ...(input.summary !== undefined ? { summary: input.summary } : {}),
    ...(input.origin !== undefined ? { origin: input.origin } : {}),
    remarks,
  };
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
    ...(draft.remarks !== null ? { remarks: draft.remarks } : {}),
  };
}
