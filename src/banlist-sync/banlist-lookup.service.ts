import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { SqlReader } from '../database/sql-reader';
import { BanIdRow, BanlistPlayerRow, BanRow, BanView, BanlistUserView, toBanView, toBanlistUserView } from './banlist.view';

const PLAYER_SQL = 'SELECT uuid, reputation, synced_at AS syncedAt FROM banlist_players WHERE uuid = ?';
// Served by IDX_banlist_bans_player.
const PLAYER_BANS_SQL = 'SELECT ban_id AS banId, type FROM banlist_bans WHERE player_uuid = ?';
// One statement: the ban by primary key, our current game id (players with a login record only) and the upstream's name.
const BAN_SQL =
  'SELECT ban.ban_id AS banId, ban.player_uuid AS playerUuid, ban.type, ban.reason, ban.server, ban.banned_by AS bannedBy, ' +
  'ban.lost_rep AS lostRep, ban.banned_at AS bannedAt, ban.synced_at AS syncedAt, known.mcid AS currentMcid, mirrored.upstream_name AS upstreamName ' +
  'FROM banlist_bans ban ' +
  'LEFT JOIN players known ON known.uuid = ban.player_uuid AND known.first_login IS NOT NULL ' +
  'LEFT JOIN banlist_players mirrored ON mirrored.uuid = ban.player_uuid ' +
  'WHERE ban.ban_id = ?';

/** The read side of the mirror (plain SQL, no entity hydration): 404 for what was never synced. */
@Injectable()
export class BanlistLookupService {
  constructor(private readonly reader: SqlReader) {}

  async user(uuid: string): Promise<BanlistUserView> {
    const key = uuid.toLowerCase();
    const player = await this.reader.one<BanlistPlayerRow>(PLAYER_SQL, [key]);
    if (!player) {
      throw ApiError.notFound(msg('banlist.playerNotSynced', { uuid: key }));
    }
    return toBanlistUserView(player, await this.reader.all<BanIdRow>(PLAYER_BANS_SQL, [key]));
  }

  async ban(banId: number): Promise<BanView> {
    const ban = await this.reader.one<BanRow>(BAN_SQL, [banId]);
    if (!ban) {
      throw ApiError.notFound(msg('banlist.banNotFound', { banId }));
    }
    return toBanView(ban);
  }
}
