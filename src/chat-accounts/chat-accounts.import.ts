import { Injectable } from '@nestjs/common';
import { CHATID_PATTERN, MCID_PATTERN, normaliseUuid } from '../common/identifiers';
import type { Transaction } from '../database/transaction';
import { PlayersRepository } from '../players/players.repository';
import { PlayersService } from '../players/players.service';
import { ChatAccountsRepository } from './chat-accounts.repository';
import { ChatAccountsService } from './chat-accounts.service';
import { SENDER_ID_PATTERN } from '../common/validation/sender-id';
import { CHAT_NAME_MAX, importedLinks, normaliseDiscriminator } from './profile-fields';

/** What an import call did: `accepted + skipped + refused.length` = the rows given. */
export interface ImportCounts {
  /** Rows stored now. */
  accepted: number;
  /** Rows whose source key was imported before (a rerun). */
  skipped: number;
  /** Rows that cannot be stored, by source key, with the reason (plain English). */
  refused: Array<{ sourceId: string; reason: string }>;
}

/** A `discordlink` row: a link of a player to a chat account, active or ended (`disabled`). */
export interface ChatLinkRow {
  sourceId: string;
  uuid: string;
  /** The row's `player` (the game id), used only when the player is not known yet. */
  mcid: string | null;
  chatid: string;
  name: string | null;
  discriminator: string | null;
  disabled: boolean;
}

/** A `subaccount` row. */
export interface SecondAccountRow {
  sourceId: string;
  chatid: string;
  name: string | null;
  discriminator: string | null;
  mainChatid: string;
  registeredAt: Date;
}

/** A `socials` row. */
export interface ProfileLinksRow {
  sourceId: string;
  uuid: string;
  twitterId: string | null;
  githubId: string | null;
  homeUrl: string | null;
}

/**
 * The import of the original database's chat accounts (src/original-import/ calls these inside its
 * transaction), idempotent by the source row key: a rerun stores nothing new. Rows are applied in
 * the order given, so `discordlink` rows in ascending id make the newest row decide a link.
 */
@Injectable()
export class ChatAccountsImport {
  constructor(
    private readonly repository: ChatAccountsRepository,
    private readonly accounts: ChatAccountsService,
    private readonly players: PlayersService,
    private readonly playerRows: PlayersRepository,
  ) {}

  /**
   * `discordlink`: the name becomes the chat account's name when nothing newer is stored; an
   * active row links the player to the chat id (taking it from a player an older row linked it
   * to), a disabled row unlinks it when it is still the player's link. A player not known yet is
   * added (with the row's game id).
   */
  async importChatLinksIn(tx: Transaction, rows: readonly ChatLinkRow[]): Promise<ImportCounts> {
    const counts = emptyCounts();
    const now = new Date();
    for (const row of rows) {
      const uuid = normaliseUuid(row.uuid);
      const refusal = refuseKey(row.sourceId) ?? (!uuid ? 'uuid is not a game UUID' : undefined) ?? refuseChatid(row.chatid, 'disid');
      if (refusal || !uuid) {
        counts.refused.push({ sourceId: row.sourceId, reason: refusal ?? 'uuid is not a game UUID' });
        continue;
      }
      if (!(await this.repository.addReceipt(tx, 'original', 'discordlink', row.sourceId, now))) {
        counts.skipped += 1;
        continue;
      }
      await this.addName(tx, row.chatid, row.name, row.discriminator, now);
      await this.players.ensureKnownAs(tx, uuid, row.mcid && MCID_PATTERN.test(row.mcid) ? row.mcid : null);
      const current = (await this.playerRows.getInTransaction(tx, uuid))?.chatid ?? null;
      if (row.disabled) {
        if (current === row.chatid) {
          await this.players.setChatid(tx, uuid, null);
        }
      } else if (current !== row.chatid) {
        const holder = await this.playerRows.getChatHolder(tx, row.chatid);
        if (holder && holder !== uuid) {
          await this.players.setChatid(tx, holder, null);
        }
        await this.players.setChatid(tx, uuid, row.chatid);
      }
      counts.accepted += 1;
    }
    return counts;
  }

  /** `subaccount`: a second account of the person whose main chat account is `mainChatid`. */
  async importSecondAccountsIn(tx: Transaction, rows: readonly SecondAccountRow[]): Promise<ImportCounts> {
    const counts = emptyCounts();
    const now = new Date();
    for (const row of rows) {
      const refusal =
        refuseKey(row.sourceId) ??
        refuseChatid(row.chatid, 'disid') ??
        refuseChatid(row.mainChatid, 'main_disid') ??
        (row.chatid === row.mainChatid ? 'disid equals main_disid' : undefined) ??
        (Number.isNaN(row.registeredAt.getTime()) ? 'created_at is not a time' : undefined);
      if (refusal) {
        counts.refused.push({ sourceId: row.sourceId, reason: refusal });
        continue;
      }
      const record = { origin: 'original' as const, sourceId: row.sourceId, chatid: row.chatid, mainChatid: row.mainChatid, registeredAt: row.registeredAt };
      if (!(await this.repository.addSecondAccount(tx, record, now))) {
        counts.skipped += 1;
        continue;
      }
      await this.addName(tx, row.chatid, row.name, row.discriminator, now);
      counts.accepted += 1;
    }
    return counts;
  }

  /**
   * `socials`: the row's links that are set and of their field's form are stored over what the
   * player has (a value left empty in the row keeps the stored one); a value not of its form is
   * left out and counted in `droppedValues`. A player not known yet is added by uuid.
   */
  async importProfileLinksIn(tx: Transaction, rows: readonly ProfileLinksRow[]): Promise<ImportCounts & { droppedValues: number }> {
    const counts = { ...emptyCounts(), droppedValues: 0 };
    const now = new Date();
    for (const row of rows) {
      const uuid = normaliseUuid(row.uuid);
      const refusal = refuseKey(row.sourceId) ?? (!uuid ? 'uuid is not a game UUID' : undefined);
      if (refusal || !uuid) {
        counts.refused.push({ sourceId: row.sourceId, reason: refusal ?? 'uuid is not a game UUID' });
        continue;
      }
      if (!(await this.repository.addReceipt(tx, 'original', 'socials', row.sourceId, now))) {
        counts.skipped += 1;
        continue;
      }
      const { links, dropped } = importedLinks(row);
      counts.droppedValues += dropped;
      const change = Object.fromEntries(Object.entries(links).filter(([, value]) => value !== null));
      await this.accounts.changeLinksIn(tx, 'original', uuid, change, now);
      counts.accepted += 1;
    }
    return counts;
  }

  private async addName(tx: Transaction, chatid: string, name: string | null, discriminator: string | null, now: Date): Promise<void> {
    const text = name?.trim().slice(0, CHAT_NAME_MAX) ?? '';
    if (text !== '') {
      await this.repository.addImportedAccount(tx, { chatid, name: text, discriminator: normaliseDiscriminator(discriminator) }, now);
    }
  }
}

function emptyCounts(): ImportCounts {
  return { accepted: 0, skipped: 0, refused: [] };
}

function refuseKey(sourceId: string): string | undefined {
  return SENDER_ID_PATTERN.test(sourceId) ? undefined : 'the source key is not 1-64 printable characters';
}

function refuseChatid(chatid: string, column: string): string | undefined {
  return CHATID_PATTERN.test(chatid) ? undefined : `${column} is not a chat id (17-20 digits)`;
}
