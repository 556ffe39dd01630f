import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { PunishmentsReader } from '../punishments/punishments.reader';
import { ChatAccountsReader, type ChatAccountView } from '../chat-accounts/chat-accounts.reader';
import { VotesReader } from '../votes/votes.reader';
import { chatColourRank, titleText } from '../votes/vote-rewards';
import { timeAgoText, wallClock } from './site-times';
import { SitePlayersService } from '../site-players/site-players.service';

export interface SitePlayerName {
  mcid: string;
  uuid: string;
}

export interface SiteProfile {
  rankText: string | null;
  rank: number;
  username: string;
  isVerified: boolean;
  uuid: string;
  firstLogin: string | null;
  firstHowManyAgo: string | null;
  leastLogin: string | null;
  leastHowManyAgo: string | null;
  socials: { twitterId: string | null; discordId: string | null; githubId: string | null; homeUrl: string | null };
}

export interface SiteChatAccount {
  id: string;
  name: string;
  discriminator: string;
  imgurl: string;
}

export interface SitePunishment {
  type: 'Jail' | 'ChatJail' | 'EBan' | 'VBan';
  id: number;
  mcid: string;
  reason: string;
  testment: string | null;
  status: boolean;
  bannedBy: string;
  date: string;
}

export interface SitePunishments {
  count: { jail: number; chatjail: number; eban: number; vban: number };
  items: SitePunishment[];
}

/** A player's page on the players site, part by part (docs/players-site.md, "A player's page"). */
@Injectable()
export class SiteProfileService {
  constructor(
    private readonly sitePlayers: SitePlayersService,
    private readonly punishments: PunishmentsReader,
    private readonly votes: VotesReader,
    private readonly chatAccounts: ChatAccountsReader,
    private readonly config: AppConfig,
  ) {}

  async name(id: string): Promise<SitePlayerName> {
    const player = await this.sitePlayers.resolve(id);
    return { mcid: player.mcid ?? '', uuid: player.uuid };
  }

  /** Who the player is: name, vote rewards, first and latest login, links. */
  async profile(id: string): Promise<SiteProfile> {
    const [player, [votes, links]] = await this.sitePlayers.resolveWith(id, (uuid) => Promise.all([this.votes.counts(uuid), this.chatAccounts.profileLinks(uuid)]));
    const now = new Date();
    return {
      rankText: titleText(votes.first, this.config.rankTitleWords, votes.loginText),
      rank: chatColourRank(votes.second),
      username: player.mcid ?? '',
      isVerified: player.chatid !== null,
      uuid: player.uuid,
      firstLogin: player.firstLogin && this.time(player.firstLogin),
      firstHowManyAgo: player.firstLogin && timeAgoText(player.firstLogin, now, this.config.COMMUNITY_TIME_ZONE),
      leastLogin: player.lastLogin && this.time(player.lastLogin),
      leastHowManyAgo: player.lastLogin && timeAgoText(player.lastLogin, now, this.config.COMMUNITY_TIME_ZONE),
      socials: { twitterId: links.twitterId, discordId: player.chatid, githubId: links.githubId, homeUrl: links.homeUrl },
    };
  }

  /** The player's linked chat account and the latest second account of the same person. */
  async chatAccountsOf(id: string): Promise<{ mainAccount: SiteChatAccount | null; subAccount: SiteChatAccount | null }> {
    const player = await this.sitePlayers.resolve(id);
    const { main, sub } = await this.chatAccounts.forPlayer(player.uuid, player.chatid);
    const view = (account: ChatAccountView | null): SiteChatAccount | null =>
      account && { id: account.id, name: account.name, discriminator: account.discriminator, imgurl: account.avatarUrl };
    return { mainAccount: view(main), subAccount: view(sub) };
  }

  /** Every punishment of the player, newest first, with the count of each kind. */
  async punishmentsOf(id: string): Promise<SitePunishments> {
    const [, { counts, items }] = await this.sitePlayers.resolveWith(id, (uuid) => this.punishments.forPlayer(uuid));
    return {
      count: counts,
      items: items.map((item) => ({
        type: item.kind,
        id: item.id,
        mcid: item.mcid,
        reason: item.reason,
        testment: item.testment,
        status: item.active,
        bannedBy: item.issuedBy,
        date: this.time(item.issuedAt),
      })),
    };
  }

  private time(date: Date): string {
    return wallClock(date, this.config.COMMUNITY_TIME_ZONE);
  }
}
