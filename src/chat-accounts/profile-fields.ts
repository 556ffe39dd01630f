/**
 * The formats of chat account fields and profile links (docs/game-server.md, "Chat bot"), and the
 * chat platform's default avatar. Pure functions, no framework imports.
 */

/** A discriminator as the platform had them: `0` (none, since the 2023 names), or up to 4 digits. */
export const DISCRIMINATOR_PATTERN = /^[0-9]{1,4}$/;

/** A GitHub login: letters, digits and single inner hyphens, at most 39 characters. */
export const GITHUB_LOGIN_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/** A Twitter id as the player or the source gives it: 1 to 64 characters without white space or control characters. */
export const TWITTER_ID_PATTERN = /^[^\s\p{Cc}]{1,64}$/u;

export const CHAT_NAME_MAX = 100;
export const URL_MAX = 512;

/** An absolute http(s) URL of at most 512 characters with a host. */
export function isWebUrl(value: string): boolean {
  if (value.length > URL_MAX || /\s/.test(value)) {
    return false;
  }
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export function isGithubLogin(value: string): boolean {
  return GITHUB_LOGIN_PATTERN.test(value);
}

export function isTwitterId(value: string): boolean {
  return TWITTER_ID_PATTERN.test(value);
}

/** `"0"` for none (absent, empty, or all zeros as some sources wrote it), else the digits as given. */
export function normaliseDiscriminator(value: string | null | undefined): string {
  if (!value || !DISCRIMINATOR_PATTERN.test(value) || /^0+$/.test(value)) {
    return '0';
  }
  return value;
}

const DEFAULT_AVATARS = 'https://cdn.discordapp.com/embed/avatars';

/**
 * The chat platform's default avatar for an account that has none: for accounts without a
 * discriminator one of six pictures chosen by the id's timestamp bits (`(id >> 22) % 6`), for
 * the older accounts one of five by the discriminator (`discriminator % 5`).
 */
export function defaultAvatarUrl(chatid: string, discriminator: string): string {
  const legacy = normaliseDiscriminator(discriminator);
  const index = legacy === '0' ? Number((BigInt(chatid) >> 22n) % 6n) : Number(legacy) % 5;
  return `${DEFAULT_AVATARS}/${index}.png`;
}

/** The profile links a player or the chat bot sets; each a value or null (none). */
export interface ProfileLinks {
  twitterId: string | null;
  githubId: string | null;
  homeUrl: string | null;
}

/** A change of profile links: an absent member stays as it is, null clears it. */
export type ProfileLinksChange = Partial<ProfileLinks>;

export const NO_PROFILE_LINKS: Readonly<ProfileLinks> = Object.freeze({ twitterId: null, githubId: null, homeUrl: null });

/** Applies a change to the stored links. */
export function applyLinksChange(stored: ProfileLinks, change: ProfileLinksChange): ProfileLinks {
  return {
    twitterId: change.twitterId === undefined ? stored.twitterId : change.twitterId,
    githubId: change.githubId === undefined ? stored.githubId : change.githubId,
    homeUrl: change.homeUrl === undefined ? stored.homeUrl : change.homeUrl,
  };
}

/**
 * Links as the original database kept them, made safe to serve: surrounding white space trimmed,
 * empty text as none, and a value that is not of its field's form (a GitHub URL where a login
 * belongs, a URL without http(s)) left out as none; `dropped` counts those.
 */
export function importedLinks(row: { twitterId: string | null; githubId: string | null; homeUrl: string | null }): { links: ProfileLinks; dropped: number } {
  let dropped = 0;
  const keep = (value: string | null, valid: (text: string) => boolean): string | null => {
    const text = value?.trim() ?? '';
    if (text === '') {
      return null;
    }
    if (!valid(text)) {
      dropped += 1;
      return null;
    }
    return text;
  };
  const links = { twitterId: keep(row.twitterId, isTwitterId), githubId: keep(row.githubId, isGithubLogin), homeUrl: keep(row.homeUrl, isWebUrl) };
  return { links, dropped };
}
