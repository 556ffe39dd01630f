import { Injectable } from '@nestjs/common';
import { chunks } from '../database/chunks';
import type { Transaction } from '../database/transaction';
import { dateOf, type DbTime } from '../database/transformers';
import type { BanTimeFrom } from './community-banlist-ban.entity';

/** A ban-list ban issued on the community's own server, as an import gives it. */
export interface NewCommunityBan {
  origin: 'original';
  sourceId: string;
  banId: number;
  uuid: string;
  type: 'global' | 'local';
  reason: string;
  bannedBy: string | null;
  bannedAt: Date;
  bannedAtFrom: BanTimeFrom;
}

/** Ban ids per IN (…) list: within both drivers' placeholder limits. */
const IDS_PER_QUERY = 500;

const INSERT_SQL =
  'INSERT INTO community_banlist_bans (ban_id, player_uuid, type, reason, banned_by, banned_at, banned_at_from, active, origin, source_id, created_at, updated_at) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)';

/** The community's own ban-list records (`community_banlist_bans`), and the mirror's times they may borrow. */
@Injectable()
export class CommunityBanlistBansRepository {
  /** The mirror's time of each of these ban ids that it has. */
  async mirrorTimes(tx: Transaction, banIds: readonly number[]): Promise<Map<number, Date>> {
    const times = new Map<number, Date>();
    for (const chunk of chunks([...new Set(banIds)], IDS_PER_QUERY)) {
      const rows = await tx.all<{ banId: number | string; bannedAt: DbTime }>(
        `SELECT ban_id AS banId, banned_at AS bannedAt FROM banlist_bans WHERE ban_id IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      for (const row of rows) {
        times.set(Number(row.banId), dateOf(row.bannedAt));
      }
    }
    return times;
  }

  /** Who holds each of these ban ids here: (origin, source id). */
  async holders(tx: Transaction, banIds: readonly number[]): Promise<Map<number, { origin: string; sourceId: string }>> {
    const holders = new Map<number, { origin: string; sourceId: string }>();
    for (const chunk of chunks([...new Set(banIds)], IDS_PER_QUERY)) {
      const rows = await tx.all<{ banId: number | string; origin: string; sourceId: string }>(
        `SELECT ban_id AS banId, origin, source_id AS sourceId FROM community_banlist_bans WHERE ban_id IN (${chunk.map(() => '?').join(', ')})${tx.forUpdate}`,
        chunk,
      );
      for (const row of rows) {
        holders.set(Number(row.banId), { origin: row.origin, sourceId: row.sourceId });
      }
    }
    return holders;
  }

  async insert(tx: Transaction, ban: NewCommunityBan, now: Date): Promise<void> {
    await tx.run(INSERT_SQL, [
      ban.banId,
      ban.uuid,
      ban.type,
      ban.reason,
      ban.bannedBy,
      tx.time(ban.bannedAt),
      ban.bannedAtFrom,
      ban.origin,
      ban.sourceId,
      tx.time(now),
      tx.time(now),
    ]);
  }
}
