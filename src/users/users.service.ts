import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import type { PlayerIdentifier } from '../common/identifiers';
import { AppConfig } from '../config/app-config';
import type { Player } from '../players/player.entity';
import { PlayersService } from '../players/players.service';
import { LoginsService } from './logins.service';
import { resolveUserQuery, UserQuery } from './user-query';
import { toUserView, UserView } from './user.view';

/** Looking players up (`GET /users`): only players with a login record from DATA_CUTOFF on exist. */
@Injectable()
export class UsersService {
  constructor(
    private readonly players: PlayersService,
    private readonly logins: LoginsService,
    private readonly config: AppConfig,
  ) {}

  async find(query: UserQuery): Promise<UserView> {
    const resolved = resolveUserQuery(query);
    if (!resolved.ok) {
      throw ApiError.invalidField(resolved.field, resolved.message);
    }
    const player = await this.findExisting(resolved.identifier);
    const cutoff = this.config.dataCutoff;
    // first_login is kept at ingest; it can only precede the cutoff if DATA_CUTOFF was raised since.
    const firstLogin = player.firstLogin && player.firstLogin < cutoff ? await this.logins.firstLoginSince(player.uuid, cutoff) : player.firstLogin;
    return toUserView(player, firstLogin);
  }

  /** The player as `/users` sees it, or 404. */
  async findExisting(identifier: PlayerIdentifier): Promise<Player> {
    const player = await this.players.findLoggedIn(identifier, this.config.dataCutoff);
    if (!player) {
      throw ApiError.notFound(msg('users.notFound', { field: identifier.kind, value: identifier.value }));
    }
    return player;
  }
}
