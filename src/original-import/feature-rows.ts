/**
 * How the rows of the players-site source tables (play time, votes, groups, chat accounts, profile
 * links, punishments, mini-game results) become the rows the features import. Pure functions, no
 * framework imports: the choices are described in docs/moving-from-original.md.
 */

import { gameIdOf, instantOf, optionalText, text, UnreadableRow, type SourceValue } from './original-mapping';

/** The largest count or number of seconds a row may carry (an INTEGER on both databases). */
const MAX_COUNT = 2_147_483_647;

const WHOLE_NUMBER = /^\s*\+?\d{1,10}(?:\.0*)?\s*$/;
const EPOCH = /^\s*\d{9,13}\s*$/;

/** A whole number 0..2,147,483,647 (text, number or `12.0`); unreadable otherwise. */
export function countOf(value: SourceValue | undefined, column: string): number {
  const raw = text(value);
  if (raw === null || !WHOLE_NUMBER.test(raw) || Number(raw) > MAX_COUNT) {
    throw new UnreadableRow(`${column} ${raw === null ? 'NULL' : JSON.stringify(raw)} is not a whole number from 0 to ${MAX_COUNT}`);
  }
  return Math.trunc(Number(raw));
}

const DECIMAL = /^\s*-?\d{1,12}(?:\.\d+)?\s*$/;

/** A finite number (a duration that may have a fraction), at least `min`. */
export function decimalOf(value: SourceValue | undefined, column: string, min = 0): number {
  const raw = text(value);
  if (raw === null || !DECIMAL.test(raw) || Number(raw) < min) {
    throw new UnreadableRow(`${column} ${raw === null ? 'NULL' : JSON.stringify(raw)} is not a number from ${min}`);
  }
  return Number(raw);
}

/** An optional time: NULL (or an absent column) is null; a wall clock in the source zone, or a Unix time in seconds or milliseconds. */
export function optionalInstantOf(value: SourceValue | undefined, offsetMinutes: number, column: string): Date | null {
  const raw = text(value);
  if (raw === null || raw.trim() === '') {
    return null;
  }
  if (EPOCH.test(raw)) {
    const number = Number(raw);
    // Ten digits or fewer: seconds (until 2286); more: milliseconds.
    return new Date(raw.trim().length <= 10 ? number * 1000 : number);
  }
  return instantOf(value, offsetMinutes, column);
}

/** A required time, read like `optionalInstantOf`. */
export function requiredInstantOf(value: SourceValue | undefined, offsetMinutes: number, column: string): Date {
  const instant = optionalInstantOf(value, offsetMinutes, column);
  if (instant === null) {
    throw new UnreadableRow(`${column} is missing`);
  }
  return instant;
}

/** Text cut to what the feature column holds (names, reasons), or null. */
export function boundedText(value: SourceValue | undefined, max: number): string | null {
  const raw = optionalText(value);
  return raw === null ? null : [...raw].slice(0, max).join('');
}

/** A player's name at the time: a game id where it is one, else the text as recorded (cut to 64). */
export function nameAtTheTime(value: SourceValue | undefined): string | null {
  try {
    return gameIdOf(value);
  } catch {
    return boundedText(value, 64);
  }
}

const IN_FORCE = new Set(['1', 'true', 'yes', 'y', 'punishing', 'active', 'on']);
const LIFTED = new Set(['0', 'false', 'no', 'n', 'end', 'ended', 'off', 'lifted']);

/** A punishment's `status`: a boolean (any spelling, BIT) or the strings `punishing` / `end`. */
export function inForceOf(value: SourceValue | undefined): boolean {
  if (Buffer.isBuffer(value)) {
    return value.some((byte) => byte !== 0);
  }
  const raw = text(value)?.trim().toLowerCase() ?? null;
  if (raw !== null && IN_FORCE.has(raw)) {
    return true;
  }
  if (raw !== null && LIFTED.has(raw)) {
    return false;
  }
  throw new UnreadableRow(`status ${raw === null ? 'NULL' : JSON.stringify(text(value))} is neither in force (1, punishing) nor lifted (0, end)`);
}

/** A permission group as the players site shows it: the source's word lowercased (`default` when none). */
export function groupOf(value: SourceValue | undefined): string {
  const raw = optionalText(value)?.toLowerCase() ?? null;
  if (raw === null) {
    return 'default';
  }
  if (raw.length > 64) {
    throw new UnreadableRow(`permission ${JSON.stringify(raw.slice(0, 80))} is longer than 64 characters`);
  }
  return raw;
}

/** A chat discriminator: four digits, or "0" where the platform no longer has one or the source has none. */
export function discriminatorOf(value: SourceValue | undefined): string {
  const raw = optionalText(value);
  return raw !== null && /^\d{1,4}$/.test(raw) && Number(raw) !== 0 ? raw.padStart(4, '0') : '0';
}

/** A chat account name (what the chat bot reports later replaces it); unreadable when missing. */
export function chatNameOf(value: SourceValue | undefined): string {
  const raw = boundedText(value, 64);
  if (raw === null) {
    throw new UnreadableRow('name is missing');
  }
  return raw;
}

/** As the source gives it: 1 to 64 characters without white space or control characters (the profile links' own rule). */
const TWITTER = /^[^\s\p{Cc}]{1,64}$/u;
const GITHUB = /^(?:https?:\/\/github\.com\/)?([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})\/?$/;

/** What was read of one profile link: the value, or why it was dropped (the rest of the row is imported). */
export interface LinkValue {
  value: string | null;
  dropped?: string;
}

/** `twitterId` as the source gives it; null when blank. */
export function twitterIdOf(value: SourceValue | undefined): LinkValue {
  const raw = optionalText(value);
  if (raw === null) {
    return { value: null };
  }
  return TWITTER.test(raw) ? { value: raw } : { value: null, dropped: `twitterId ${JSON.stringify(raw.slice(0, 80))} is not an account name` };
}

/** `githubId`: a GitHub login (a profile URL is read as its login). */
export function githubIdOf(value: SourceValue | undefined): LinkValue {
  const raw = optionalText(value);
  if (raw === null) {
    return { value: null };
  }
  const match = GITHUB.exec(raw);
  return match ? { value: match[1] } : { value: null, dropped: `githubId ${JSON.stringify(raw.slice(0, 80))} is not a GitHub login` };
}

/** `homeUrl`: an http(s) URL of at most 512 characters. */
export function homeUrlOf(value: SourceValue | undefined): LinkValue {
  const raw = optionalText(value);
  if (raw === null) {
    return { value: null };
  }
  let valid: boolean;
  try {
    const url = new URL(raw);
    valid = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && raw.length <= 512;
  } catch {
    valid = false;
  }
  return valid ? { value: raw } : { value: null, dropped: `homeUrl ${JSON.stringify(raw.slice(0, 80))} is not an http(s) URL` };
}
