import { Injectable } from '@nestjs/common';
import { ChatAccountsRepository } from './chat-accounts.repository';
import { defaultAvatarUrl, NO_PROFILE_LINKS, type ProfileLinks } from './profile-fields';

/** A chat account as the players site shows it. */
export interface ChatAccountView {
  id: string;
  /** As last reported; the chat id itself while no name was ever reported or imported. */
  name: string;
  /** `"0"` when the account has none. */
  discriminator: string;
  /** As last reported; the platform's default avatar until one is. */
  avatarUrl: string;
}

export interface PlayerChatAccounts {
  main: ChatAccountView | null;
  sub: ChatAccountView | null;
}

/**
 * The reads the players site needs (src/players-site/): each one or two primary-key or index
 * lookups, never a scan.
 */
@Injectable()
export class ChatAccountsReader {
  constructor(private readonly repository: ChatAccountsRepository) {}

  /**
   * The player's main chat account (their active chat link, `linkedChatId` = players.chatid) and
   * the most recently registered second account of that chat account; both null without a link.
   * `uuid` names the player for the caller's sake: the accounts hang on the chat link.
   */
  async forPlayer(_uuid: string, linkedChatId: string | null): Promise<PlayerChatAccounts> {
    if (!linkedChatId) {
      return { main: null, sub: null };
    }
    const [main, sub] = await Promise.all([this.repository.getAccount(linkedChatId), this.repository.getLatestSecondAccount(linkedChatId)]);
    return {
      main: view(linkedChatId, main),
      sub: sub ? view(sub.chatid, sub.name === null ? null : { name: sub.name, discriminator: sub.discriminator ?? '0', avatarUrl: sub.avatarUrl }) : null,
    };
  }

  /** The player's profile links; all null when none were ever set. */
  async profileLinks(uuid: string): Promise<ProfileLinks> {
    return (await this.repository.getLinks(uuid.toLowerCase())) ?? { ...NO_PROFILE_LINKS };
  }
}

function view(chatid: string, stored: { name: string; discriminator: string; avatarUrl: string | null } | null): ChatAccountView {
  const discriminator = stored?.discriminator ?? '0';
  return { id: chatid, name: stored?.name ?? chatid, discriminator, avatarUrl: stored?.avatarUrl ?? defaultAvatarUrl(chatid, discriminator) };
}
