/** Identifier formats (docs/api.md, Players). Pure functions, no framework imports. */

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const MCID_PATTERN = /^[A-Za-z0-9_]{1,16}$/;
export const CHATID_PATTERN = /^[0-9]{17,20}$/;
export const CLUB_TOKEN_PATTERN = /^[A-Za-z0-9]{32}$/;
export const USER_KEY_PATTERN = /^[A-Za-z]{10}$/;
export const POSITIVE_INT_PATTERN = /^[1-9][0-9]{0,15}$/;

/**
 * A positive decimal integer without sign or leading zeros, within the safe integers (ids in
 * URLs: punishments, ban-list bans); undefined for anything else, which names no record.
 */
export function positiveIntOf(text: string): number | undefined {
  if (!POSITIVE_INT_PATTERN.test(text)) {
    return undefined;
  }
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
/** `/users/{x}`: any of the three forms `classifyPlayerIdentifier` reads (documented as the path parameter's pattern). */
export const PLAYER_IDENTIFIER_PATTERN = new RegExp(`^(?:${[UUID_PATTERN, CHATID_PATTERN, MCID_PATTERN].map((pattern) => pattern.source.slice(1, -1)).join('|')})$`);

export type PlayerIdentifier =
  | { kind: 'uuid'; value: string }
  | { kind: 'chatid'; value: string }
  | { kind: 'mcid'; value: string };

/** Reads `/users/{x}`: a uuid, else 17–20 digits as a chat id, else a game id; undefined when none fits. */
export function classifyPlayerIdentifier(raw: string): PlayerIdentifier | undefined {
  if (UUID_PATTERN.test(raw)) {
    return { kind: 'uuid', value: raw.toLowerCase() };
  }
  if (CHATID_PATTERN.test(raw)) {
    return { kind: 'chatid', value: raw };
  }
  if (MCID_PATTERN.test(raw)) {
    return { kind: 'mcid', value: raw };
  }
  return undefined;
}

/** Accepts a uuid with hyphens (or the 32-hex form some upstreams send) and returns it hyphenated, lower-case. */
export function normaliseUuid(raw: string): string | undefined {
  const compact = raw.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(compact)) {
    return undefined;
  }
  const hex = compact.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
