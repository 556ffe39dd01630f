/**
 * How a sync's answer for one player changes the community's own ban-list records
 * (docs/bans-site.md, "Where the records come from"). Pure: the repository reads the records it
 * concerns and writes what this returns, in the sync's transaction.
 */
import type { BanTimeFrom } from './community-banlist-ban.entity';

export type BanListType = 'global' | 'local';

/** A community record as the sync compares it. */
export interface HeldBan {
  banId: number;
  playerUuid: string;
  type: BanListType;
  reason: string;
  bannedBy: string | null;
  bannedAt: Date;
  bannedAtFrom: BanTimeFrom;
  active: boolean;
}

/** A ban the ban-list service lists for the player (the mirror's form of it). */
export interface ListedBan {
  banId: number;
  type: BanListType;
  reason: string;
  server: string | null;
  bannedBy: string | null;
  bannedAt: Date;
}

export type BanChanges = Partial<Pick<HeldBan, 'playerUuid' | 'type' | 'reason' | 'bannedBy' | 'bannedAt' | 'bannedAtFrom' | 'active'>>;

export interface ListingOutcome {
  /** Bans issued on the community's server that are not held yet. */
  added: Array<ListedBan & { playerUuid: string }>;
  /** Held records that change, with only what changes. */
  changed: Array<{ banId: number; changes: BanChanges }>;
}

/**
 * Whether a ban's server is the community's: the address the setting names, any case, surrounding
 * spaces ignored. No setting: never (the sync then adds nothing, but still follows held records).
 */
export function communityServerMatcher(setting: string | undefined): (server: string | null) => boolean {
  const wanted = setting?.trim().toLowerCase();
  return (server) => wanted !== undefined && wanted !== '' && server !== null && server.trim().toLowerCase() === wanted;
}

function sameTime(a: Date, b: Date): boolean {
  return a.getTime() === b.getTime();
}

/**
 * `held`: the records of the player and of every listed ban id. A listed ban held here takes the
 * service's type, reason, player and issuer (an issuer the service does not name is kept), is in
 * force again, and takes the service's time unless the original database gave one; a listed ban
 * not held is added when its server is the community's; a record of this player the service no
 * longer lists is kept, no longer in force.
 */
export function followListing(playerUuid: string, held: readonly HeldBan[], listed: readonly ListedBan[], isCommunityServer: (server: string | null) => boolean): ListingOutcome {
  const heldById = new Map(held.map((ban) => [ban.banId, ban]));
  const listedIds = new Set(listed.map((ban) => ban.banId));
  const outcome: ListingOutcome = { added: [], changed: [] };
  for (const ban of listed) {
    const record = heldById.get(ban.banId);
    if (!record) {
      if (isCommunityServer(ban.server)) {
        outcome.added.push({ ...ban, playerUuid });
      }
      continue;
    }
    const changes: BanChanges = {};
    if (record.playerUuid !== playerUuid) {
      changes.playerUuid = playerUuid;
    }
    if (record.type !== ban.type) {
      changes.type = ban.type;
    }
    if (record.reason !== ban.reason) {
      changes.reason = ban.reason;
    }
    if (ban.bannedBy !== null && record.bannedBy !== ban.bannedBy) {
      changes.bannedBy = ban.bannedBy;
    }
    if (record.bannedAtFrom !== 'source' && (!sameTime(record.bannedAt, ban.bannedAt) || record.bannedAtFrom !== 'mirror')) {
      changes.bannedAt = ban.bannedAt;
      changes.bannedAtFrom = 'mirror';
    }
    if (!record.active) {
      changes.active = true;
    }
    if (Object.keys(changes).length > 0) {
      outcome.changed.push({ banId: ban.banId, changes });
    }
  }
  for (const record of held) {
    if (record.playerUuid === playerUuid && record.active && !listedIds.has(record.banId)) {
      outcome.changed.push({ banId: record.banId, changes: { active: false } });
    }
  }
  return outcome;
}
