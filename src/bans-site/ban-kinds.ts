/**
 * The bans site's kinds of record and how its lists are cut (docs/bans-site.md). Pure, no
 * framework imports.
 */
import { banTypeOf, punishmentKindOf as punishmentKindOfRecord } from '../evidence/record-ref';
import type { PunishmentKind } from '../punishments/punishment-kinds';

/** The community's own ban-list records: global and local bans issued on its server. */
export type BanListKind = 'gban' | 'lban';
/** Punishments that are bans; the mute is `chatjail` to the punishments feature. Jail is not a ban. */
export type BanPunishmentKind = 'vban' | 'eban' | 'chatban';
export type BanSiteKind = BanListKind | BanPunishmentKind;

export const BAN_SITE_KINDS: readonly BanSiteKind[] = ['gban', 'lban', 'vban', 'eban', 'chatban'];


export function isBanSiteKind(value: string): value is BanSiteKind {
  return (BAN_SITE_KINDS as readonly string[]).includes(value);
}

export function isBanListKind(kind: BanSiteKind): kind is BanListKind {
  return kind === 'gban' || kind === 'lban';
}

/** The mapping is the records' one (src/evidence/record-ref.ts): `chatban` is the punishments' `chatjail`. */
export function punishmentKindOf(kind: BanPunishmentKind): PunishmentKind {
  return punishmentKindOfRecord(kind);
}

export function banListTypeOf(kind: BanListKind): 'global' | 'local' {
  return banTypeOf(kind);
}

/** What the site's list parameters ask for. */
export interface ListOptions {
  /** `all_items=true`: every record, not only the newest. */
  allItems: boolean;
  /** `active_only=false`: lifted records too. */
  activeOnly: boolean;
}

/** How many records a list shows without `all_items=true`, as the original did. */
export const RECENT_LIMIT = 15;

/** The list's limit: null for every record. */
export function listLimit(options: ListOptions): number | null {
  return options.allItems ? null : RECENT_LIMIT;
}
