import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { ChatAccountsRepository, type ChatOrigin } from './chat-accounts.repository';
import { applyLinksChange, NO_PROFILE_LINKS, normaliseDiscriminator, type ProfileLinks, type ProfileLinksChange } from './profile-fields';

export interface IngestCounts {
  accepted: number;
  skipped: number;
}

export interface ChatAccountReport {
  id: string;
  chatid: string;
  name: string;
  discriminator?: string;
  avatarUrl?: string | null;
  reportedAt: Date;
}

export interface SecondAccountReport {
  id: string;
  chatid: string;
  mainChatid: string;
  registeredAt: Date;
}

export interface ProfileLinksReport extends ProfileLinksChange {
  id: string;
  uuid: string;
}

/**
 * What the chat bot reports (docs/game-server.md, "Chat bot") and what a player sets on the
 * account page. Each batch is one transaction, idempotent by the sender's ids.
 */
@Injectable()
export class ChatAccountsService {
  constructor(
    private readonly repository: ChatAccountsRepository,
    private readonly players: PlayersService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  reportAccounts(items: readonly ChatAccountReport[]): Promise<IngestCounts> {
    return this.unitOfWork.transaction(async (tx) => {
      const now = new Date();
      let accepted = 0;
      for (const item of items) {
        if (!(await this.repository.addReceipt(tx, 'chat-bot', 'chat-account', item.id, now))) {
          continue;
        }
        const discriminator = normaliseDiscriminator(item.discriminator);
        await this.repository.saveReportedAccount(tx, { chatid: item.chatid, name: item.name, discriminator, avatarUrl: item.avatarUrl ?? null, reportedAt: item.reportedAt }, now);
        accepted += 1;
      }
      return { accepted, skipped: items.length - accepted };
    });
  }

  reportSecondAccounts(items: readonly SecondAccountReport[]): Promise<IngestCounts> {
    return this.unitOfWork.transaction(async (tx) => {
      const now = new Date();
      let accepted = 0;
      for (const item of items) {
        const record = { origin: 'chat-bot' as const, sourceId: item.id, chatid: item.chatid, mainChatid: item.mainChatid, registeredAt: item.registeredAt };
        if (await this.repository.addSecondAccount(tx, record, now)) {
          accepted += 1;
        }
      }
      return { accepted, skipped: items.length - accepted };
    });
  }

  reportProfileLinks(items: readonly ProfileLinksReport[]): Promise<IngestCounts> {
    return this.unitOfWork.transaction(async (tx) => {
      const now = new Date();
      let accepted = 0;
      // Applied in the order sent: two changes of one player in a batch end as the second says.
      for (const item of items) {
        if (!(await this.repository.addReceipt(tx, 'chat-bot', 'profile-links', item.id, now))) {
          continue;
        }
        const change = { twitterId: item.twitterId, githubId: item.githubId, homeUrl: item.homeUrl };
        await this.changeLinksIn(tx, 'chat-bot', item.uuid.toLowerCase(), change, now);
        accepted += 1;
      }
      return { accepted, skipped: items.length - accepted };
    });
  }

  /** The account page: the signed-in player's own links (the player has a row: they registered). */
  setOwnLinks(uuid: string, change: ProfileLinksChange): Promise<ProfileLinks> {
    return this.unitOfWork.transaction((tx) => this.changeLinksIn(tx, 'account', uuid, change, new Date()));
  }

  /** Changes a player's links inside `tx`; a player unknown to `players` gets a bare row first. */
  async changeLinksIn(tx: Transaction, by: ChatOrigin | 'account', uuid: string, change: ProfileLinksChange, now: Date, mcid: string | null = null): Promise<ProfileLinks> {
    if (by !== 'account') {
      await this.players.ensureKnownAs(tx, uuid, mcid);
    }
    const stored = (await this.repository.getLinksForUpdate(tx, uuid)) ?? NO_PROFILE_LINKS;
    const links = applyLinksChange(stored, change);
    await this.repository.saveLinks(tx, uuid, links, now);
    return links;
  }
}
