import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ChatAccountsImport } from '../chat-accounts/chat-accounts.import';
import { AppConfig } from '../config/app-config';
import { chunks } from '../database/chunks';
import type { Transaction } from '../database/transaction';
import type { ClubGroup } from '../club/club-account.entity';
import { PasswordsService } from '../club/passwords.service';
import { PlayersRepository } from '../players/players.repository';
import { PlayersService } from '../players/players.service';
import { AchievementDefinition, AchievementsRepository } from '../users/achievements.repository';
import type { LoginInput } from '../users/login-batch';
import { LoginsService } from '../users/logins.service';
import { fitText, MAX_TARGET_ID, Run, skippedOwner, skipRecord } from './import-run';
import { ClubAccountsRepository } from '../club/club-accounts.repository';
import { OriginalImportRepository } from './original-import.repository';
import { inTransactions } from './target-session';
import { chatIdOf, sourceIdOf, flagOf, gameIdOf, instantOf, integerOf, loginSucceeded, optionalText, SourceRow, text, UnreadableRow, uuidOf } from './original-mapping';

/** Players settled per transaction at the end of the login pass (a few milliseconds each on SQLite). */
const PLAYERS_PER_SETTLE = 500;

type Progress = (table: string, rows: number) => void;

interface ChatLinkRow {
  id: number;
  uuid: string;
  chatid: string;
  name: string | null;
  discriminator: string | null;
}

interface ImportedClubAccount {
  id: number;
  uuid: string;
  clubgroup: ClubGroup;
  createdAt: Date;
}

/** Reads one row; an unreadable one is reported as skipped (and remembered, for the rows that belong to it) and yields undefined. */
function readRow<T>(run: Run, table: string, row: SourceRow, read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof UnreadableRow) {
      skipRecord(run, table, sourceIdOf(row), error.message);
      return undefined;
    }
    throw error;
  }
}

/** What a second run compares of an imported club account's placeholder password (a digest, not the hash itself). */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** `login`, `discordlink`, the achievement tables and `clubjaoafa` (docs/moving-from-original.md). */
@Injectable()
export class OriginalPlayersImporter {
  constructor(
    private readonly config: AppConfig,
    private readonly logins: LoginsService,
    private readonly players: PlayersService,
    private readonly playersRepository: PlayersRepository,
    private readonly achievements: AchievementsRepository,
    private readonly passwords: PasswordsService,
    private readonly imports: OriginalImportRepository,
    private readonly accounts: ClubAccountsRepository,
    private readonly chatAccounts: ChatAccountsImport,
  ) {}

  /** Login records: refused logins and those before the cutoff are skipped; addresses and GeoIP are not read at all. */
  async importLogins(run: Run, onProgress: Progress): Promise<void> {
    const table = 'login';
    run.report.counts(table);
    let rows = 0;
    let batch: LoginInput[] = [];
    // Every player of the source's logins (tens of thousands of uuids at most): only those not yet
    // in it get a row during the pass, and all of them are settled at the end (also after a cut-off run).
    const known = new Set<string>();
    const flush = async (): Promise<void> => {
      if (batch.length === 0) {
        return;
      }
      const items = batch;
      batch = [];
      const started = performance.now();
      const result = await run.target.batch((tx) => this.logins.ingestHistoryIn(tx, items, known));
      await run.target.after(performance.now() - started);
      run.report.count(table, 'imported', result.accepted);
      run.report.count(table, 'excluded', result.beforeCutoff);
      run.report.count(table, 'unchanged', items.length - result.accepted - result.beforeCutoff);
    };
    for await (const page of run.source.pages(table, ['player', 'uuid', 'date', 'permission', 'login_success'])) {
      for (const row of page) {
        if (!loginSucceeded(row.login_success)) {
          // A refused login (the row is written before the server decides).
          run.report.count(table, 'excluded');
          continue;
        }
        const login = readRow(run, table, row, () => ({
          uuid: uuidOf(row.uuid),
          mcid: gameIdOf(row.player),
          loggedInAt: instantOf(row.date, run.offset, 'date'),
          permission: optionalText(row.permission)?.slice(0, 64) ?? null,
        }));
        if (login) {
          batch.push(login);
          if (batch.length >= run.target.batchSize()) {
            await flush();
          }
        }
      }
      rows += page.length;
      onProgress(table, rows);
    }
    await flush();
    await this.settlePlayers(run, known);
  }

  /**
   * Each imported player's first and last login, game id and permission, set-based over the stored
   * login records, in paced transactions of PLAYERS_PER_SETTLE so a running server's writes get their turn.
   */
  private async settlePlayers(run: Run, known: ReadonlySet<string>): Promise<void> {
    for (const chunk of chunks([...known], PLAYERS_PER_SETTLE)) {
      const started = performance.now();
      await run.target.batch((tx) => this.players.settleFromLogins(tx, chunk));
      await run.target.after(performance.now() - started);
    }
  }

  /**
   * Active chat links; where several claim one player or one chat id, the newest (highest id) wins.
   * The chat account of a link made or kept here gets the row's name and discriminator (the
   * players site shows them until the chat bot reports newer ones); other rows are history.
   */
  async importChatLinks(run: Run, onProgress: Progress): Promise<void> {
    const table = 'discordlink';
    run.report.counts(table);
    const players = new Set<string>();
    const chatIds = new Set<string>();
    let rows = 0;
    for await (const page of run.source.pages(table, ['uuid', 'disid', 'disabled', 'name', 'discriminator'], { descending: true })) {
      await inTransactions(run.target, page, async (tx, chunk) => {
        for (const row of chunk) {
          if (flagOf(row.disabled)) {
            // An unlinked (history) row.
            run.report.count(table, 'excluded');
            continue;
          }
          const link = readRow(run, table, row, () => ({
            id: integerOf(row.id, 'id'),
            uuid: uuidOf(row.uuid),
            chatid: chatIdOf(row.disid),
            name: optionalText(row.name),
            discriminator: optionalText(row.discriminator),
          }));
          if (!link) {
            continue;
          }
          if (players.has(link.uuid) || chatIds.has(link.chatid)) {
            run.report.skip(table, link.id, `a newer active row links ${players.has(link.uuid) ? `player ${link.uuid}` : `chat id ${link.chatid}`}; this older one is not imported`);
            continue;
          }
          players.add(link.uuid);
          chatIds.add(link.chatid);
          await this.importChatLink(run, tx, link);
        }
      });
      rows += page.length;
      onProgress(table, rows);
    }
  }

  private async importChatLink(run: Run, tx: Transaction, link: ChatLinkRow): Promise<void> {
    const table = 'discordlink';
    const outcome = await this.linkChat(run, tx, link);
    if (outcome === 'imported' || outcome === 'unchanged') {
      // The same row to the chat accounts (by its id, idempotent there): the link is already as it says.
      const result = await this.chatAccounts.importChatLinksIn(tx, [{ sourceId: String(link.id), uuid: link.uuid, mcid: null, chatid: link.chatid, name: link.name, discriminator: link.discriminator, disabled: false }]);
      for (const refusal of result.refused) {
        run.report.problem(table, link.id, `the chat account's name was not imported: ${refusal.reason}`);
      }
      run.report.count(table, outcome);
    }
  }

  /** Links the player to the chat id where nothing here contradicts it; the row's outcome, or undefined when it was reported as skipped. */
  private async linkChat(run: Run, tx: Transaction, link: ChatLinkRow): Promise<'imported' | 'unchanged' | undefined> {
    const table = 'discordlink';
    const player = await this.playersRepository.getInTransaction(tx, link.uuid);
    if (!player?.lastLogin || player.lastLogin < this.config.dataCutoff) {
      run.report.skip(table, link.id, `player ${link.uuid} has no login on or after the data cutoff`);
      return undefined;
    }
    if (player.chatid === link.chatid) {
      return 'unchanged';
    }
    if (player.chatid !== null) {
      run.report.skip(table, link.id, `player ${link.uuid} is linked to another chat id here; kept as it is`);
      return undefined;
    }
    const holder = await this.playersRepository.getChatHolder(tx, link.chatid);
    if (holder) {
      run.report.skip(table, link.id, `chat id ${link.chatid} is linked to another player here (${holder}); kept as it is`);
      return undefined;
    }
    await this.players.setChatid(tx, link.uuid, link.chatid);
    return 'imported';
  }

  /**
   * The achievement catalogue, by the plugin's ids where the definition here is the same (or there
   * is none); one defined differently here is imported under a new id, reported, and its unlocks
   * go with it.
   */
  async importAchievements(run: Run, onProgress: Progress): Promise<void> {
    const table = 'jaoSuperAchievement2_Type';
    run.report.counts(table);
    let rows = 0;
    for await (const page of run.source.pages(table, ['title', 'description', 'hidden', 'created_at'])) {
      await inTransactions(run.target, page, async (tx, chunk) => {
        for (const row of chunk) {
          const definition = readRow(run, table, row, () => {
            const title = optionalText(row.title);
            if (title === null || title.length > 255) {
              throw new UnreadableRow('title is missing or longer than 255 characters');
            }
            const createdAt = text(row.created_at) === null ? new Date() : instantOf(row.created_at, run.offset, 'created_at');
            const id = integerOf(row.id, 'id');
            return { key: text(row.id) ?? '', id, title, description: fitText(run.limits, 'description', text(row.description)) ?? '', hidden: flagOf(row.hidden), createdAt };
          });
          if (definition) {
            await this.importAchievement(run, tx, definition);
          }
        }
      });
      rows += page.length;
      onProgress(table, rows);
    }
  }

  private async importAchievement(run: Run, tx: Transaction, source: AchievementDefinition & { key: string; createdAt: Date }): Promise<void> {
    const table = 'jaoSuperAchievement2_Type';
    const { key, createdAt, ...definition } = source;
    const same = (here: AchievementDefinition | undefined): boolean =>
      here !== undefined && here.title === definition.title && here.description === definition.description && here.hidden === definition.hidden;
    const link = await this.imports.getLink(tx, table, key);
    if (link) {
      run.achievements.set(key, link.targetId);
      run.report.renumber(table, definition.id, link.targetId);
      if (same(await this.imports.getAchievement(tx, link.targetId))) {
        run.report.count(table, 'unchanged');
      } else {
        run.report.count(table, 'unchanged');
        run.report.problem(table, definition.id, `achievement ${link.targetId} was changed here since the import; kept as it is`);
      }
      return;
    }
    const fitsId = definition.id >= 1 && definition.id <= MAX_TARGET_ID;
    const existing = fitsId ? await this.imports.getAchievement(tx, definition.id) : undefined;
    if (existing && same(existing)) {
      run.achievements.set(key, definition.id);
      run.report.count(table, 'unchanged');
      return;
    }
    if (!existing && fitsId) {
      await this.achievements.insertDefinitions(tx, [definition], createdAt);
      run.achievements.set(key, definition.id);
      run.report.count(table, 'imported');
      return;
    }
    // Defined differently here (or an id no column holds): a new id, so no unlock lands on another achievement.
    const newId = await this.imports.nextId(tx, 'achievements');
    await this.achievements.insertDefinitions(tx, [{ ...definition, id: newId }], createdAt);
    await this.imports.saveLink(tx, table, key, newId, 'imported');
    run.achievements.set(key, newId);
    run.report.renumber(table, definition.id, newId);
    run.report.problem(table, definition.id, existing ? `achievement ${definition.id} is defined differently here; imported as achievement ${newId}, with its unlocks` : `imported as achievement ${newId}`);
    run.report.count(table, 'imported');
  }

  /** Unlocks: one per player and achievement, the earliest time (the source's repeats are skipped). */
  async importUnlocks(run: Run, onProgress: Progress): Promise<void> {
    const table = 'jaoSuperAchievement2';
    run.report.counts(table);
    let rows = 0;
    for await (const page of run.source.unlockGroups(table)) {
      await inTransactions(run.target, page, async (tx, chunk) => {
        for (const row of chunk) {
          const copies = Number(text(row.copies) ?? 1);
          const id = `${text(row.uuid) ?? 'NULL'}/${text(row.achievementid) ?? 'NULL'}`;
          // Repeats of one unlock: the earliest stands for all of them.
          run.report.count(table, 'excluded', copies - 1);
          const achievementKey = text(row.achievementid);
          const skipped = skippedOwner(run, 'jaoSuperAchievement2_Type', achievementKey);
          if (skipped !== undefined) {
            run.report.skip(table, id, `belongs to achievement #${achievementKey}, which was not imported (${skipped})`);
            continue;
          }
          const achievementId = achievementKey === null ? undefined : run.achievements.get(achievementKey);
          if (achievementId === undefined) {
            run.report.skip(table, id, `achievement #${achievementKey ?? 'NULL'} is not in the source's catalogue`);
            continue;
          }
          const unlock = readRow(run, table, { ...row, id }, () => ({
            uuid: uuidOf(row.uuid),
            achievementId,
            unlockedAt: instantOf(row.created_at, run.offset, 'created_at'),
          }));
          if (!unlock) {
            continue;
          }
          const existing = await this.imports.getUnlockTime(tx, unlock.uuid, unlock.achievementId);
          if (existing) {
            if (existing.getTime() === unlock.unlockedAt.getTime()) {
              run.report.count(table, 'unchanged');
            } else {
              run.report.skip(table, id, `recorded here with another time (${existing.toISOString()}); kept as it is`);
            }
            continue;
          }
          await this.achievements.insertUnlocks(tx, [unlock], new Date());
          run.report.count(table, 'imported');
        }
      });
      rows += page.reduce((sum, row) => sum + Number(text(row.copies) ?? 1), 0);
      onProgress(table, rows);
    }
  }

  /**
   * Club accounts of players that exist, with their group. The original password hashes cannot be
   * carried: the account gets a placeholder hash of a random secret nobody knows, so signing in
   * answers (and takes as long) as a wrong password, until the player sets one with an in-game key.
   */
  async importClubAccounts(run: Run, onProgress: Progress): Promise<void> {
    const table = 'clubjaoafa';
    run.report.counts(table);
    let placeholder: string | undefined;
    let rows = 0;
    for await (const page of run.source.pages(table, ['uuid', 'clubgroup', 'created_at'])) {
      placeholder ??= await this.passwords.hash(randomBytes(32).toString('base64'));
      const hash = placeholder;
      await inTransactions(run.target, page, async (tx, chunk) => {
        for (const row of chunk) {
          const account = readRow(run, table, row, (): ImportedClubAccount => ({
            id: integerOf(row.id, 'id'),
            uuid: uuidOf(row.uuid),
            clubgroup: optionalText(row.clubgroup)?.toLowerCase() === 'admin' ? 'admin' : 'default',
            createdAt: text(row.created_at) === null ? new Date() : instantOf(row.created_at, run.offset, 'created_at'),
          }));
          if (account) {
            await this.importClubAccount(run, tx, account, hash);
          }
        }
      });
      rows += page.length;
      onProgress(table, rows);
    }
  }

  private async importClubAccount(run: Run, tx: Transaction, account: ImportedClubAccount, hash: string): Promise<void> {
    const table = 'clubjaoafa';
    const link = await this.imports.getLink(tx, table, String(account.id));
    const existing = await this.imports.getAccount(tx, account.uuid);
    if (link || existing) {
      const untouched = link && existing && existing.id === link.targetId && link.importedState === `${account.clubgroup}:${digest(existing.passwordHash)}` && existing.nickname === null;
      if (untouched && existing.clubgroup === account.clubgroup) {
        run.report.count(table, 'unchanged');
      } else {
        run.report.skip(table, account.id, link ? 'the account was changed here since the import (password, nickname or group); kept as it is' : `player ${account.uuid} already has an account here; kept as it is`);
      }
      return;
    }
    if (!(await this.imports.hasLoginSince(tx, account.uuid, this.config.dataCutoff))) {
      run.report.skip(table, account.id, `player ${account.uuid} has no login on or after the data cutoff`);
      return;
    }
    const accountId = await this.accounts.create(tx, account.uuid, hash, account.createdAt, account.clubgroup);
    await this.imports.saveLink(tx, table, String(account.id), accountId, `${account.clubgroup}:${digest(hash)}`);
    run.report.count(table, 'imported');
  }
}
