/**
 * How rows of the original service's database become this service's records. Pure functions, no
 * framework imports: the choices are described in docs/moving-from-original.md.
 */

import type { RequestStatus } from '../cities/city-request.entity';
import type { Point } from '../cities/geometry';
import { checkShape, MAX_COORDINATE } from '../cities/geometry';

/** A value as the source driver hands it back (dates as text: the session zone decides their wall clock). */
export type SourceValue = string | number | bigint | null | Buffer | Date;
export type SourceRow = Record<string, SourceValue | undefined>;

/** Why a row cannot be read; the row is reported with its table and id, the rest is imported. */
export class UnreadableRow extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_BARE = /^[0-9a-f]{32}$/;
const GAME_ID = /^[A-Za-z0-9_]{1,16}$/;
const CHAT_ID = /^\d{17,20}$/;
const OFFSET = /^([+-])(\d{2}):(\d{2})$/;
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;
const INTEGER_TEXT = /^\s*-?\d{1,9}\s*$/;

/** `+09:00` → minutes east of UTC; undefined when it is not a ±HH:MM offset. */
export function parseZoneOffset(zone: string): number | undefined {
  const match = OFFSET.exec(zone);
  if (!match) {
    return undefined;
  }
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (hours > 14 || minutes > 59) {
    return undefined;
  }
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** A row's id for the report: a number where it is one. */
export function sourceIdOf(row: SourceRow): number | string | null {
  const raw = text(row.id);
  return raw !== null && /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
}

/** True when a corner lies outside the world's coordinate bounds (what the API accepts). */
export function outsideWorld(corners: readonly Point[]): boolean {
  return corners.some((corner) => Math.abs(corner.x) > MAX_COORDINATE || Math.abs(corner.z) > MAX_COORDINATE);
}

/** The corners as a client would send them (`[{id, x, z}]`), for the API's own checks. */
export function cornersInput(corners: readonly Point[]): Array<{ id: number; x: number; z: number }> {
  return corners.map((corner, index) => ({ id: index + 1, x: corner.x, z: corner.z }));
}

export function text(value: SourceValue | undefined): string | null {
  if (value === null || value === undefined) {
    return null;
  }
  if (Buffer.isBuffer(value)) {
    return value.toString('utf8');
  }
  return String(value);
}

/** Optional text: NULL and blank become null, the rest is trimmed. */
export function optionalText(value: SourceValue | undefined): string | null {
  const raw = text(value)?.trim();
  return raw ? raw : null;
}

/** A wall-clock DATETIME text read in the source zone, as an instant; a date that does not exist is unreadable. */
export function instantOf(value: SourceValue | undefined, offsetMinutes: number, column: string): Date {
  if (value instanceof Date) {
    return value;
  }
  const raw = text(value);
  const match = raw === null ? null : WALL_CLOCK.exec(raw.trim());
  if (!match) {
    throw new UnreadableRow(`${column} is not a date and time (${raw === null ? 'NULL' : JSON.stringify(raw)})`);
  }
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const millis = Math.floor(Number(`0.${match[7] ?? '0'}`) * 1000);
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(utc);
  // Date.UTC rolls 2021-02-30 over to March: a day that does not exist (or MySQL's zero date) is refused.
  if (year < 1970 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new UnreadableRow(`${column} ${JSON.stringify(raw)} is not a date that exists`);
  }
  return new Date(utc - offsetMinutes * 60_000);
}

/** A player's uuid, hyphenated and lower case (hyphen-less values are accepted). */
export function uuidOf(value: SourceValue | undefined, column = 'uuid'): string {
  const raw = text(value)?.trim().toLowerCase() ?? '';
  if (UUID.test(raw)) {
    return raw;
  }
  if (UUID_BARE.test(raw)) {
    return `${raw.slice(0, 8)}-${raw.slice(8, 12)}-${raw.slice(12, 16)}-${raw.slice(16, 20)}-${raw.slice(20)}`;
  }
  throw new UnreadableRow(`${column} ${JSON.stringify(text(value))} is not a uuid`);
}

export function gameIdOf(value: SourceValue | undefined, column = 'player'): string {
  const raw = text(value)?.trim() ?? '';
  if (!GAME_ID.test(raw)) {
    throw new UnreadableRow(`${column} ${JSON.stringify(text(value))} is not a game id`);
  }
  return raw;
}

export function chatIdOf(value: SourceValue | undefined, column = 'disid'): string {
  const raw = text(value)?.trim() ?? '';
  if (!CHAT_ID.test(raw)) {
    throw new UnreadableRow(`${column} ${JSON.stringify(text(value))} is not a chat id`);
  }
  return raw;
}

/** 0/1 flags as numbers, text, booleans or BIT(1) buffers. */
export function flagOf(value: SourceValue | undefined): boolean {
  if (Buffer.isBuffer(value)) {
    return value.some((byte) => byte !== 0);
  }
  return value !== null && value !== undefined && Number(value) !== 0 && String(value).toLowerCase() !== 'false';
}

const TRUE_TEXT = new Set(['1', 'y', 'yes', 'true']);

/**
 * `login_success`: only a true value (1, '1', 'Y', 'yes', 'true', any case; a set BIT) is a
 * successful login. Everything else ('N', 'no', 2, NULL, ...) is a refused one.
 */
export function loginSucceeded(value: SourceValue | undefined): boolean {
  if (Buffer.isBuffer(value)) {
    return value.length > 0 && value.every((byte, index) => byte === (index === value.length - 1 ? 1 : 0));
  }
  const raw = text(value);
  return raw !== null && TRUE_TEXT.has(raw.trim().toLowerCase());
}

export function integerOf(value: SourceValue | undefined, column: string): number {
  const raw = text(value);
  if (raw === null || !INTEGER_TEXT.test(raw)) {
    throw new UnreadableRow(`${column} ${JSON.stringify(raw)} is not an integer`);
  }
  return Number(raw);
}

/**
 * The `corners` JSON: `[{"id":1,"x":..,"z":..}, …]` with x/z as numbers or integer strings. Only
 * readability is checked here (shape rules are reported separately, history is not rewritten).
 */
export function cornersOf(value: SourceValue | undefined, column = 'corners'): Point[] {
  const raw = text(value);
  let parsed: unknown;
  try {
    parsed = raw === null ? null : JSON.parse(raw);
  } catch {
    throw new UnreadableRow(`${column} is not JSON`);
  }
  if (!Array.isArray(parsed) || parsed.length < 3) {
    throw new UnreadableRow(`${column} is not a list of at least 3 corners`);
  }
  const entries = parsed.map((entry: unknown, index) => {
    const corner = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const coordinate = (axis: 'x' | 'z'): number => {
      const axisValue = corner[axis];
      const number = typeof axisValue === 'number' ? axisValue : typeof axisValue === 'string' && INTEGER_TEXT.test(axisValue) ? Number(axisValue) : NaN;
      if (!Number.isInteger(number)) {
        throw new UnreadableRow(`${column}: corner ${index + 1} has no integer ${axis}`);
      }
      return number;
    };
    return { order: typeof corner.id === 'number' || typeof corner.id === 'string' ? Number(corner.id) : index + 1, index, point: { x: coordinate('x'), z: coordinate('z') } };
  });
  // Corner ids run 1..n in input order; sorting by them (stable) keeps rows that numbered them anyway.
  return entries.sort((a, b) => (Number.isFinite(a.order) && Number.isFinite(b.order) ? a.order - b.order : a.index - b.index)).map((entry) => entry.point);
}

/** Original status: 0 pending (but approved when applied to a city), 1 approved, −1 rejected. */
export function requestStatusOf(value: SourceValue | undefined, appliedCityId: number | null): RequestStatus {
  const status = value === null || value === undefined ? NaN : Number(text(value));
  if (status === 1) {
    return 'approved';
  }
  if (status === -1) {
    return 'rejected';
  }
  if (status === 0) {
    return appliedCityId === null ? 'pending' : 'approved';
  }
  throw new UnreadableRow(`status ${JSON.stringify(text(value))} is not 0, 1 or -1`);
}

/** Why the region breaks today's shape rules (reported, the city is imported as it is), or undefined. */
export function shapeProblem(corners: Point[]): string | undefined {
  return checkShape(corners)?.en;
}
