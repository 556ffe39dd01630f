/**
 * The upstream ban-list body (docs/game-server.md, The ban-list mirror; the mcbans-cache-server form): strict
 * validation and the mapping to what we store. Pure functions, no framework imports.
 */
import { normaliseUuid } from '../common/identifiers';

export type BanType = 'global' | 'local';

/** What a successful, valid upstream answer tells us about one player. */
export interface UpstreamPlayer {
  uuid: string;
  name: string;
  reputation: number;
  bans: UpstreamBan[];
}

/** One ban, already mapped to our record fields (docs/api.md, Ban list). */
export interface UpstreamBan {
  banId: number;
  type: BanType;
  reason: string;
  server: string | null;
  bannedBy: string | null;
  lostRep: number | null;
  bannedAt: Date;
}

export type ParseResult = { ok: true; player: UpstreamPlayer } | { ok: false; problem: string };

/** A player the upstream has no record of: stored as clean (docs/game-server.md, The ban-list mirror). */
export const CLEAN_REPUTATION = 10;

const MAX_BANS = 10_000;
const MAX_REASON = 10_000;
const MAX_NAME = 64;
const MAX_SERVER = 255;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

class Malformed extends Error {}

function fail(problem: string): never {
  throw new Malformed(problem);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finiteNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(`${field} must be a finite number`);
  }
  return value;
}

function text(value: unknown, field: string, max: number, allowEmpty = false): string {
  if (typeof value !== 'string') {
    fail(`${field} must be a string`);
  }
  if ((!allowEmpty && value.trim() === '') || value.length > max) {
    fail(`${field} must be ${allowEmpty ? '' : '1 to '}${max} characters`);
  }
  return value;
}

function timestamp(value: unknown, field: string): Date {
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value)) {
    fail(`${field} must be an ISO 8601 timestamp with a time zone`);
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    fail(`${field} is not a valid date`);
  }
  return date;
}

function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === null || value === undefined) {
    return null;
  }
  const result = text(value, field, max, true);
  return result === '' ? null : result;
}

function parseBan(raw: unknown, index: number): UpstreamBan {
  const at = `bans[${index}]`;
  if (!isRecord(raw)) {
    fail(`${at} must be an object`);
  }
  const banId = raw.banId;
  if (typeof banId !== 'number' || !Number.isSafeInteger(banId) || banId < 1) {
    fail(`${at}.banId must be a positive integer`);
  }
  const type = typeof raw.type === 'string' ? raw.type.toLowerCase() : undefined;
  if (type !== 'global' && type !== 'local') {
    fail(`${at}.type must be global or local`);
  }
  const reason = text(raw.reason, `${at}.reason`, MAX_REASON, true);
  const bannedAt = timestamp(raw.bannedAt, `${at}.bannedAt`);

  let server: string | null = null;
  if (raw.server !== null && raw.server !== undefined) {
    if (!isRecord(raw.server)) {
      fail(`${at}.server must be an object or null`);
    }
    server = optionalText(raw.server.address, `${at}.server.address`, MAX_SERVER);
  }

  let bannedBy: string | null = null;
  if (raw.bannedBy !== null && raw.bannedBy !== undefined) {
    if (!isRecord(raw.bannedBy)) {
      fail(`${at}.bannedBy must be an object or null`);
    }
    const name = optionalText(raw.bannedBy.name, `${at}.bannedBy.name`, MAX_NAME);
    const uuid = optionalText(raw.bannedBy.uuid, `${at}.bannedBy.uuid`, MAX_NAME);
    bannedBy = name ?? uuid;
  }

  const lostRep = raw.lostRep === undefined || raw.lostRep === null ? null : finiteNumber(raw.lostRep, `${at}.lostRep`);
  return { banId, type, reason, server, bannedBy, lostRep, bannedAt };
}

/**
 * Validates a 200 body for the player `expectedUuid`. Anything that does not fit the documented
 * form is a problem (the fetch counts as failed and nothing of it is stored); unknown extra
 * fields are ignored.
 */
export function parseUpstreamPlayer(body: unknown, expectedUuid: string): ParseResult {
  try {
    if (!isRecord(body)) {
      fail('body must be a JSON object');
    }
    if (typeof body.playerId !== 'number' || !Number.isSafeInteger(body.playerId) || body.playerId < 0) {
      fail('playerId must be a non-negative integer');
    }
    const name = text(body.name, 'name', MAX_NAME);
    const uuid = typeof body.uuid === 'string' ? normaliseUuid(body.uuid) : undefined;
    if (uuid === undefined) {
      fail('uuid must be a game uuid (with or without hyphens)');
    }
    if (uuid !== normaliseUuid(expectedUuid)) {
      fail(`uuid ${uuid} is not the requested player`);
    }
    const reputation = finiteNumber(body.reputation, 'reputation');
    if (body.lastCheckedAt !== null && body.lastCheckedAt !== undefined) {
      timestamp(body.lastCheckedAt, 'lastCheckedAt');
    }
    if (!Array.isArray(body.bans)) {
      fail('bans must be an array');
    }
    if (body.bans.length > MAX_BANS) {
      fail(`bans has more than ${MAX_BANS} entries`);
    }
    const bans = body.bans.map((ban, index) => parseBan(ban, index));
    const ids = new Set(bans.map((ban) => ban.banId));
    if (ids.size !== bans.length) {
      fail('bans contains a banId twice');
    }
    return { ok: true, player: { uuid, name, reputation, bans } };
  } catch (error) {
    if (error instanceof Malformed) {
      return { ok: false, problem: error.message };
    }
    throw error;
  }
}

/**
 * How long to wait after a 429: `Retry-After` as delta-seconds or an IMF-fixdate, capped at
 * `maxMs`; `fallbackMs` when the header is missing or unreadable.
 */
export function retryAfterMs(header: string | null, now: number, maxMs: number, fallbackMs: number): number {
  const value = header?.trim() ?? '';
  let ms: number;
  if (/^\d+$/.test(value)) {
    ms = Number(value) * 1000;
  } else if (/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value) && !Number.isNaN(Date.parse(value))) {
    ms = Date.parse(value) - now;
  } else {
    ms = fallbackMs;
  }
  return Math.min(Math.max(ms, 0), maxMs);
}

/** Exponential backoff with jitter: uniform in [base·2^n / 2, base·2^n]. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = baseMs * 2 ** attempt;
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
