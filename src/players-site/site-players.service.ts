import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import type { PlayerRecord } from '../players/players.repository';
import { PlayersRepository } from '../players/players.repository';
import { PunishmentsReader } from '../punishments/punishments.reader';
import { sitePlayerId } from './site-player-id';

/**
 * Finds the player a public-site route names (docs/players-site.md, "Naming a player"). A player
 * is known once they logged in or have a record here (a punishment); DATA_CUTOFF does not apply:
 * the sites show a player's whole history.
 */
@Injectable()
export class SitePlayersService {
  constructor(
    private readonly players: PlayersRepository,
    private readonly punishments: PunishmentsReader,
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
   * The player, and `read` of their uuid. When `raw` is a uuid (as the sites mostly send), both go
   * out at once: on MySQL in one round trip with the read's statements (docs/design-and-performance.md,
   * "Reads share a round trip on MySQL"). An unknown player's 404 wins over whatever the read
   * answered, as if it had run after. Otherwise the player is found first.
   */
  async resolveWith<T>(raw: string, read: (uuid: string) => Promise<T>): Promise<[PlayerRecord, T]> {
    const id = sitePlayerId(raw);
    if (id?.kind !== 'uuid') {
      const player = await this.resolve(raw);
      return [player, await read(player.uuid)];
    }
    const [player, value] = await Promise.allSettled([this.resolve(raw), read(id.value)]);
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
    return player && (await this.isKnown(player)) ? player : null;
  }

  private async isKnown(player: PlayerRecord): Promise<boolean> {
    return player.firstLogin !== null || (await this.punishments.hasAny(player.uuid));
  }
}
