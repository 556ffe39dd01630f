import type { Player } from '../players/player.entity';

/** The user object (docs/api.md, Players). */
export interface UserView {
  uuid: string;
  mcid: string | null;
  chatid: string | null;
  permission: string | null;
  firstLogin: string | null;
  lastLogin: string | null;
}

export function toUserView(player: Player, firstLogin: Date | null = player.firstLogin): UserView {
  return {
    uuid: player.uuid,
    mcid: player.mcid,
    chatid: player.chatid,
    permission: player.permission,
    firstLogin: firstLogin ? firstLogin.toISOString() : null,
    lastLogin: player.lastLogin ? player.lastLogin.toISOString() : null,
  };
}
