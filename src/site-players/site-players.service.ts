import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { CommunityBansReader } from '../community-bans/community-bans.reader';
import type { PlayerRecord } from '../players/players.repository';
import { PlayersRepository } from '../players/players.repository';
import { PunishmentsReader } from '../punishments/punishments.reader';
import { sitePlayerId } from './site-player-id';

/**
 * Finds the player a public-site route names (docs/players-site.md, "Naming a player"), for the
 * players site and the bans site alike. A player is known once they logged in or have a record
 * here (a punishment, or a ban-list record issued on the community's server); DATA_CUTOFF does
 * not apply: the sites show a player's whole history.
 */
@Injectable()
export class SitePlayersService {
  constructor(
    private readonly players: PlayersRepository,
    private readonly punishments: PunishmentsReader,
    private readonly communityBans: CommunityBansReader,
  ) {}

  /** The player, or 404 "User not found." (the players site compares that text). */
  async resolve(raw: string): Promise<PlayerRecord> {
    const player = await this.find(raw);
    if (!player) {
      throw ApiError.notFound('site.userNotFound');
    }
    return player;
  }

  /**
   * The uuid of the player, or 404 as `resolve`. A uuid given as such is known by its records too
   * when the player has no row here: a ban-list record of the original database may name a player
   * who never logged in to this service.
   */
  async resolveUuid(raw: string): Promise<string> {
    const player = await this.find(raw);
    if (player) {
      return player.uuid;
    }
    const id = sitePlayerId(raw);
    if (id?.kind === 'uuid' && (await this.hasRecords(id.value))) {
      return id.value;
    }
    throw ApiError.notFound('site.userNotFound');
  }

  /**
   * The player, and `read` of their uuid. When `raw` is a uuid (as the sites mostly send), both go
   * out at once: on MySQL in one round trip with the read's statements (docs/design-and-performance.md,
   * "Reads share a round trip on MySQL"); `read` gets the lookup under way, for a part that needs
   * the player's row too. An unknown player's 404 wins over whatever the read answered, as if it
   * had run after. Otherwise the player is found first.
   */
  async resolveWith<T>(raw: string, read: (uuid: string, player: Promise<PlayerRecord>) => Promise<T>): Promise<[PlayerRecord, T]> {
    const id = sitePlayerId(raw);
    if (id?.kind !== 'uuid') {
      const player = await this.resolve(raw);
      return [player, await read(player.uuid, Promise.resolve(player))];
    }
    const lookup = this.resolve(raw);
    const [player, value] = await Promise.allSettled([lookup, read(id.value, lookup)]);
    if (player.status === 'rejected') {
      throw player.reason;
    }
    if (value.status === 'rejected') {
      throw value.reason;
    }
    return [player.value, value.value];
  }

  private async find(raw: string): Promise<PlayerRecord | null> {
    const id = sitePlayerId(raw);
    if (!id) {
      return null;
    }
    const player =
      id.kind === 'uuid' ? await this.players.getByUuid(id.value) : id.kind === 'chatid' ? await this.players.getByChatid(id.value) : await this.players.getByMcid(id.value);
    return player && (player.firstLogin !== null || (await this.hasRecords(player.uuid))) ? player : null;
  }

  private async hasRecords(uuid: string): Promise<boolean> {
    // Together: on MySQL one round trip (docs/design-and-performance.md, "Reads share a round trip on MySQL").
    const [punished, banned] = await Promise.all([this.punishments.hasAny(uuid), this.communityBans.hasAny(uuid)]);
    return punished || banned;
  }
}
