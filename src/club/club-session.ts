import type { ClubGroup } from './club-account.entity';

/** The signed-in club account behind a valid user token. */
export interface ClubSession {
  accountId: number;
  tokenId: number;
  playerUuid: string;
  mcid: string | null;
  chatid: string | null;
  permission: string | null;
  nickname: string | null;
  clubgroup: ClubGroup;
  createdAt: Date;
}
