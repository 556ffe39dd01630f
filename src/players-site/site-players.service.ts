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
