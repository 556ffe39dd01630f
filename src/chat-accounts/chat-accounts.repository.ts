import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import type { ProfileLinks } from './profile-fields';

/** Who sent a record: the chat bot's routes, or the import of the original database. */
export type ChatOrigin = 'chat-bot' | 'original';

/** The kinds of report kept as receipts (second accounts carry their sender's id in their own row). */
export type ReceiptKind = 'chat-account' | 'profile-links' | 'discordlink' | 'socials';

/** A chat account as stored: avatarUrl null = none reported. */
export interface StoredChatAccount {
  chatid: string;
  name: string;
  discriminator: string;
  avatarUrl: string | null;
}

export interface ReportedChatAccount extends StoredChatAccount {
  reportedAt: Date;
}

export interface SecondAccountRecord {
  origin: ChatOrigin;
  sourceId: string;
  chatid: string;
  mainChatid: string;
  registeredAt: Date;
}

const ACCOUNT_SQL = 'SELECT chatid, name, discriminator, avatar_url AS avatarUrl FROM chat_accounts WHERE chatid = ?';
// IDX_chat_second_accounts_main: one seek, newest registration first (the later row on a tie).
const LATEST_SECOND_SQL =
  'SELECT s.chatid AS chatid, a.name AS name, a.discriminator AS discriminator, a.avatar_url AS avatarUrl ' +
  'FROM chat_second_accounts s LEFT JOIN chat_accounts a ON a.chatid = s.chatid ' +
  'WHERE s.main_chatid = ? ORDER BY s.registered_at DESC, s.id DESC LIMIT 1';
const LINKS_SQL = 'SELECT twitter_id AS twitterId, github_id AS githubId, home_url AS homeUrl FROM player_profile_links WHERE player_uuid = ?';

/** Every query of the chat-account tables: chat_accounts, chat_second_accounts, player_profile_links, chat_ingest_receipts. */
@Injectable()
export class ChatAccountsRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Records a report's sender id; false when it was received before (the report is a repeat). */
  async addReceipt(tx: Transaction, origin: ChatOrigin, kind: ReceiptKind, sourceId: string, now: Date): Promise<boolean> {
    const { affectedRows } = await tx.run(`${tx.insertIgnore} INTO chat_ingest_receipts (origin, kind, source_id, received_at) VALUES (?, ?, ?, ?)`, [
      origin,
      kind,
      sourceId,
      tx.time(now),
    ]);
    return affectedRows > 0;
  }

  /**
   * Stores a chat bot's report of an account unless a later report is stored already: reports
   * arriving out of order leave the latest one, and an equal time lets the later arrival win.
   */
  async saveReportedAccount(tx: Transaction, account: ReportedChatAccount, now: Date): Promise<void> {
    // MySQL evaluates SET left to right: reported_at comes last, so the conditions before it see the old value.
    const newer = (incoming: string): string => `chat_accounts.reported_at IS NULL OR chat_accounts.reported_at <= ${incoming}`;
    const columnsToSet = ['name', 'discriminator', 'avatar_url', 'updated_at', 'reported_at'];
    const update = tx.isMysql
      ? `ON DUPLICATE KEY UPDATE ${columnsToSet.map((column) => `${column} = IF(${newer('VALUES(reported_at)')}, VALUES(${column}), chat_accounts.${column})`).join(', ')}`
      : `ON CONFLICT (chatid) DO UPDATE SET ${columnsToSet.map((column) => `${column} = excluded.${column}`).join(', ')} WHERE ${newer('excluded.reported_at')}`;
    await tx.run(`INSERT INTO chat_accounts (chatid, name, discriminator, avatar_url, reported_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ${update}`, [
      account.chatid,
      account.name,
      account.discriminator,
      account.avatarUrl,
      tx.time(account.reportedAt),
      tx.time(now),
    ]);
  }

  /** A name from the original database: only for a chat id nothing is stored for yet (any report is newer). */
  async addImportedAccount(tx: Transaction, account: Omit<StoredChatAccount, 'avatarUrl'>, now: Date): Promise<void> {
    await tx.run(`${tx.insertIgnore} INTO chat_accounts (chatid, name, discriminator, avatar_url, reported_at, updated_at) VALUES (?, ?, ?, NULL, NULL, ?)`, [
      account.chatid,
      account.name,
      account.discriminator,
      tx.time(now),
    ]);
  }

  /** Stores a second account; false when the sender's id was stored before. */
  async addSecondAccount(tx: Transaction, record: SecondAccountRecord, now: Date): Promise<boolean> {
    const { affectedRows } = await tx.run(
      `${tx.insertIgnore} INTO chat_second_accounts (origin, source_id, chatid, main_chatid, registered_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
      [record.origin, record.sourceId, record.chatid, record.mainChatid, tx.time(record.registeredAt), tx.time(now)],
    );
    return affectedRows > 0;
  }

  /** The player's links as the transaction sees them, locked on MySQL until it ends. */
  async getLinksForUpdate(tx: Transaction, uuid: string): Promise<ProfileLinks | null> {
    return (await tx.one<ProfileLinks>(`${LINKS_SQL}${tx.forUpdate}`, [uuid])) ?? null;
  }

  async saveLinks(tx: Transaction, uuid: string, links: ProfileLinks, now: Date): Promise<void> {
    const update = tx.isMysql
      ? 'ON DUPLICATE KEY UPDATE twitter_id = VALUES(twitter_id), github_id = VALUES(github_id), home_url = VALUES(home_url), updated_at = VALUES(updated_at)'
      : 'ON CONFLICT (player_uuid) DO UPDATE SET twitter_id = excluded.twitter_id, github_id = excluded.github_id, home_url = excluded.home_url, updated_at = excluded.updated_at';
    await tx.run(`INSERT INTO player_profile_links (player_uuid, twitter_id, github_id, home_url, updated_at) VALUES (?, ?, ?, ?, ?) ${update}`, [
      uuid,
      links.twitterId,
      links.githubId,
      links.homeUrl,
      tx.time(now),
    ]);
  }

  /** One primary-key lookup. */
  async getAccount(chatid: string): Promise<StoredChatAccount | null> {
    return (await this.reader.one<StoredChatAccount>(ACCOUNT_SQL, [chatid])) ?? null;
  }

  /** The newest second account registered to `mainChatid`, with its reported name when there is one. */
  async getLatestSecondAccount(mainChatid: string): Promise<{ chatid: string; name: string | null; discriminator: string | null; avatarUrl: string | null } | null> {
    return (await this.reader.one<{ chatid: string; name: string | null; discriminator: string | null; avatarUrl: string | null }>(LATEST_SECOND_SQL, [mainChatid])) ?? null;
  }

  /** One primary-key lookup. */
  async getLinks(uuid: string): Promise<ProfileLinks | null> {
    return (await this.reader.one<ProfileLinks>(LINKS_SQL, [uuid])) ?? null;
  }
}
