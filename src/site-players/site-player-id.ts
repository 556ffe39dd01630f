import { CHATID_PATTERN, MCID_PATTERN, normaliseUuid, type PlayerIdentifier, UUID_PATTERN } from '../common/identifiers';

const COMPACT_UUID_PATTERN = /^[0-9a-fA-F]{32}$/;

/** Every form `sitePlayerId` reads, as one pattern (for the OpenAPI document). */
export const SITE_PLAYER_ID_PATTERN = new RegExp(`^(?:${[UUID_PATTERN, COMPACT_UUID_PATTERN, CHATID_PATTERN, MCID_PATTERN].map((pattern) => pattern.source.slice(1, -1)).join('|')})$`);

/**
 * How the public sites name a player (docs/players-site.md, "Naming a player"): a uuid with or
 * without hyphens, a chat id (17–20 digits) or a game id, in that order. Undefined when the text is
 * none of them: such a player cannot exist. Pure.
 */
export function sitePlayerId(raw: string): PlayerIdentifier | undefined {
  if (UUID_PATTERN.test(raw) || COMPACT_UUID_PATTERN.test(raw)) {
    return { kind: 'uuid', value: normaliseUuid(raw) ?? raw };
  }
  if (CHATID_PATTERN.test(raw)) {
    return { kind: 'chatid', value: raw };
  }
  if (MCID_PATTERN.test(raw)) {
    return { kind: 'mcid', value: raw.toLowerCase() };
  }
  return undefined;
}
