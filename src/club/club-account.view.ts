import type { ClubSession } from './club-session';

export interface ClubAccountView {
  uuid: string;
  mcid: string | null;
  chatid: string | null;
  nickname: string | null;
  clubgroup: string;
  permission: string | null;
  createdAt: string;
}

export function toClubAccountView(session: ClubSession): ClubAccountView {
  return {
    uuid: session.playerUuid,
    mcid: session.mcid,
    chatid: session.chatid,
    nickname: session.nickname,
    clubgroup: session.clubgroup,
    permission: session.permission,
    createdAt: session.createdAt.toISOString(),
  };
}
