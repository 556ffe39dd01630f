import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { CommunityBanlistBansRepository } from '../../src/community-bans/community-banlist-bans.repository';
import { square } from '../support/cities';
import { ClubUser, newPlayer, registerClubUser, TestApp } from '../support/test-app';
import { ARTIFACTS, TestBrowser } from './browser';

declare const document: { documentElement: { scrollWidth: number } };
declare const localStorage: { clear(): void };
type Img = { complete: boolean; naturalWidth: number };

/**
 * Where the pictures go: test/artifacts/console-moderation by default; the two in docs/console are
 * copied from there (docs/console-and-maps.md, Players and Bans).
 */
const OUT = process.env.CONSOLE_SCREENSHOTS ? resolve(process.env.CONSOLE_SCREENSHOTS) : join(ARTIFACTS, 'console-moderation');

const WORDS = {
  en: {
    apiKey: 'API key',
    signIn: 'Sign in',
    queue: 'Pending requests',
    players: 'Players',
    bans: 'Bans',
    search: 'Game id (or its start), uuid or chat id',
    searchButton: 'Search',
    records: 'Punishments and bans',
    logins: 'Latest logins',
    playTime: 'Play time',
    chatAccounts: 'Chat accounts',
    banlist: 'Ban-list records',
    note: 'Note',
    saveNote: 'Save note',
    noteSaved: 'Note saved.',
    noteChanged: 'Note changed',
    attach: 'Attach a picture',
    attached: 'Picture attached.',
    added: 'Picture attached',
    remove: 'Remove',
    removed: 'Picture removed.',
    lift: 'Lift…',
    liftReason: 'Reason for lifting (optional)',
    liftConfirm: 'Lift',
    lifted: 'Lifted',
    liftedEntry: 'Lifted',
    backToPlayer: 'Back to the player',
    apply: 'Apply',
    clear: 'Clear',
    issuer: 'Issued by (game id, CONSOLE…)',
    from: 'Issued from (day)',
    to: 'Issued until (day, included)',
    stateActive: 'In force',
    stateLifted: 'Lifted',
    stateAll: 'All',
    more: 'Load more',
    jail: 'Jail',
    noMatch: 'No record matches.',
    notHere: 'Ban-list records are lifted on the ban-list service',
    evidence: 'Evidence',
  },
  ja: {
    apiKey: 'APIキー',
    signIn: 'サインイン',
    queue: '審査待ちの申請',
    players: 'プレイヤー',
    bans: 'BAN・処罰',
    search: 'ゲームID（前方一致）、UUID、チャットID',
    searchButton: '検索',
    records: '処罰とBAN',
    logins: '最近のログイン',
    playTime: 'プレイ時間',
    chatAccounts: 'チャットアカウント',
    banlist: 'BANリストの記録',
    note: 'メモ',
    saveNote: 'メモを保存',
    noteSaved: 'メモを保存しました。',
    noteChanged: 'メモを変更',
    attach: '画像を添付',
    attached: '画像を添付しました。',
    added: '画像を添付',
    remove: '削除',
    removed: '画像を削除しました。',
    lift: '解除する…',
    liftReason: '解除の理由（任意）',
    liftConfirm: '解除する',
    lifted: '解除済み',
    liftedEntry: '解除',
    backToPlayer: 'プレイヤーに戻る',
    apply: '絞り込む',
    clear: 'クリア',
    issuer: '実行者（ゲームID、CONSOLE など）',
    from: 'この日から',
    to: 'この日まで（当日を含む）',
    stateActive: '有効',
    stateLifted: '解除済み',
    stateAll: 'すべて',
    more: 'さらに読み込む',
    jail: 'Jail（投獄）',
    noMatch: '該当する記録はありません。',
    notHere: 'BANリストの記録はBANリストサービス側で解除します',
    evidence: '証拠画像',
  },
} as const;

const RUNS = [
  { lang: 'ja', width: 390 },
  { lang: 'ja', width: 1440 },
  { lang: 'en', width: 390 },
  { lang: 'en', width: 1440 },
] as const;
const runName = (run: (typeof RUNS)[number]): string => `${run.lang}-${run.width}`;

/**
 * The console's Players and Bans tabs (docs/console-and-maps.md, Players and Bans) in Debian's
 * Chromium against the real service on SQLite, in Japanese and English at 390 and 1440 px: a
 * search, a player's page, a record opened from it, a note saved, a PNG attached and removed, a
 * punishment lifted, and the list's filters and paging. Every state is photographed into OUT, and
 * nothing may stick out sideways or log an error.
 */
describe('console moderation tabs (browser)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let operatorKey: string;
  const kaede = { uuid: newPlayer().uuid, mcid: 'Kaede_Mori' };
  const kaito = { uuid: newPlayer().uuid, mcid: 'Kaito' };
  const chatid = '402938475610293847';
  const GBAN_ID = 777001;
  let png: Buffer;
  let admin: ClubUser;
  const PASSWORD = 'moderation-password-1';

  async function post(path: string, key: string, body: unknown, method = 'POST'): Promise<void> {
    const result = await app.request(method, path, { body, headers: { 'x-api-key': key } });
    if (result.status >= 300) {
      throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
    }
  }

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    app = await TestApp.start({ RECAPTCHA_SECRET: '', BANLIST_SOURCE_URL: '' });
    const gs = await app.createApiKey(['game-server']);
    const bot = await app.createApiKey(['chat-bot']);
    operatorKey = await app.createApiKey(['operator'], 'ops-alice');
    admin = await registerClubUser(app, gs, { admin: true, password: PASSWORD });

    // Kaede: logins under two names, a chat link with its account, play time, a group and a city.
    await post('/game-server/logins', gs, {
      logins: [
        { uuid: kaede.uuid, mcid: 'Kaede', loggedInAt: '2026-09-02T11:00:00Z' },
        { uuid: kaede.uuid, mcid: kaede.mcid, loggedInAt: '2026-11-20T12:00:00Z' },
        { uuid: kaede.uuid, mcid: kaede.mcid, loggedInAt: '2026-11-24T20:30:00Z' },
        { uuid: kaito.uuid, mcid: kaito.mcid, loggedInAt: '2026-11-23T08:00:00Z' },
      ],
    });
    await post(`/game-server/chat-links/${kaede.uuid}`, gs, { chatid }, 'PUT');
    await post('/chat-bot/accounts', bot, { accounts: [{ id: 'acc-1', chatid, name: 'kaede.mori', reportedAt: '2026-11-20T00:00:00Z' }] });
    await post('/game-server/sessions', gs, {
      server: 'survival-1',
      sessions: [{ id: 'survival-1:1', uuid: kaede.uuid, mcid: kaede.mcid, startedAt: '2026-11-24T20:30:00Z', endedAt: '2026-11-24T23:45:00Z' }],
    });
    await post('/game-server/away-time', gs, { away: [{ id: 'afk-1', uuid: kaede.uuid, mcid: kaede.mcid, seconds: 1500, at: '2026-11-24T22:00:00Z' }] });
    await post('/game-server/group-changes', gs, { groupChanges: [{ id: 'g-1', uuid: kaede.uuid, group: 'regular', at: '2026-11-01T00:00:00Z' }] });
    const usertoken = await app.issueUserKey(gs, kaede.uuid, kaede.mcid);
    const city = await app.post('/cities/create', { usertoken, recaptcha: 'x', cityName: 'Momiji', cityNameKana: 'もみじ', corners: square(0, 0, 30), count: 900, force: true }, { headers: { 'x-api-key': operatorKey } });
    expect(city.status).toBe(201);

    // Kaede's punishments: one game ban per run to lift, a mute, an area confinement lifted in game.
    await post('/game-server/punishments', gs, {
      punishments: [
        ...RUNS.map((run, index) => ({ id: `v-${index}`, kind: 'vban', uuid: kaede.uuid, mcid: kaede.mcid, reason: `Griefing at spawn (${runName(run)})`, issuedBy: 'Notch', issuedAt: `2026-11-2${index}T10:00:00Z` })),
        { id: 'c-1', kind: 'chatjail', uuid: kaede.uuid, mcid: kaede.mcid, reason: 'Spam in chat', issuedBy: 'CONSOLE', issuedAt: '2026-11-18T09:00:00Z' },
        { id: 'e-1', kind: 'eban', uuid: kaede.uuid, mcid: kaede.mcid, reason: 'Building in the protected area', issuedBy: 'Notch', issuedAt: '2026-11-10T09:00:00Z' },
      ],
    });
    await post('/game-server/punishments/lifts', gs, { lifts: [{ kind: 'eban', id: 'e-1', liftedAt: '2026-11-12T09:00:00Z' }] });
    // A global ban of the community's own: such records come only from import:original, so it is stored as the import stores it.
    await app.app.get(UnitOfWork).transaction(async (tx) => {
      await app.app.get(CommunityBanlistBansRepository).insert(
        tx,
        { origin: 'original', sourceId: 'gban-1', banId: GBAN_ID, uuid: kaede.uuid, type: 'global', reason: 'X-ray on the main server', bannedBy: 'Admin_1', bannedAt: new Date('2026-11-05T00:00:00Z'), bannedAtFrom: 'source' },
        new Date(),
      );
    });
    // More than a page of old jails by the automatic moderator, for the filters and "Load more".
    await post('/game-server/punishments', gs, {
      punishments: Array.from({ length: 34 }, (_, index) => {
        const player = newPlayer();
        return { id: `j-${index}`, kind: 'jail', uuid: player.uuid, mcid: player.mcid, reason: `Fly hack ${index + 1}`, issuedBy: 'AutoMod', issuedAt: `2026-10-${String((index % 28) + 1).padStart(2, '0')}T0${index % 10}:00:00Z` };
      }),
    });

    // A picture to attach: an 320×200 PNG drawn from an SVG.
    png = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#2f5d8a"/><rect x="20" y="120" width="280" height="60" fill="#7fb069"/><circle cx="250" cy="50" r="28" fill="#f2c14e"/><rect x="60" y="70" width="40" height="50" fill="#8b5a2b"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    browser = await TestBrowser.launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Photographs the page, after checking that nothing sticks out sideways (naming what does). */
  async function shoot(page: Page, name: string): Promise<void> {
    const width = page.viewportSize()!.width;
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
    const wide = await page.evaluate((limit: number) => {
      type Element = { getBoundingClientRect(): { right: number }; tagName: string; className: string; textContent: string | null };
      const all = (document as unknown as { querySelectorAll(selector: string): Element[] }).querySelectorAll('body *');
      return Array.from(all)
        .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
        .map((element) => `${element.tagName}.${element.className}: ${(element.textContent ?? '').slice(0, 40)}`);
    }, width);
    expect({ name, wide }).toEqual({ name, wide: [] });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }

  /** The Bans list has been read again after a filter changed (Apply is enabled again once the answer is in). */
  async function listLoaded(page: Page): Promise<void> {
    await page.locator('form.filters button[type="submit"]:not([disabled])').waitFor();
  }

  async function signIn(page: Page, lang: 'ja' | 'en'): Promise<void> {
    const words = WORDS[lang];
    await page.context().clearCookies();
    await page.goto(`${app.baseUrl}/console?lang=${lang}`);
    await page.getByLabel(words.apiKey).fill(operatorKey);
    await page.getByRole('button', { name: words.signIn }).click();
    await page.getByRole('heading', { name: words.queue }).waitFor();
  }

  function tab(page: Page, name: string): Locator {
    return page.getByRole('navigation').getByRole('button', { name, exact: true });
  }

  /** The rows of the Bans list as "KIND reason" lines. */
  async function rows(page: Page): Promise<string[]> {
    return page.locator('.record-list .record-row').evaluateAll((buttons: Array<{ textContent: string | null }>) => buttons.map((button) => (button.textContent ?? '').replace(/\s+/g, ' ').trim()));
  }

  for (const run of RUNS) {
    it(`searches, opens a player and a record, notes, attaches, removes, lifts and filters in ${run.lang} at ${run.width} px`, async () => {
      const words = WORDS[run.lang];
      const suffix = runName(run);
      browser.problems.length = 0;
      const page = await browser.page(run.width, run.width > 1000 ? 900 : 844);
      await signIn(page, run.lang);

      // Players: a game id prefix in another case finds both players; open Kaede.
      await tab(page, words.players).click();
      await page.getByLabel(words.search).fill('KA');
      await page.getByRole('button', { name: words.searchButton, exact: true }).click();
      await page.locator('.player-list li').nth(1).waitFor();
      expect(await page.locator('.player-list li').count()).toBe(2);
      await shoot(page, `players-search-${suffix}`);
      // A uuid without hyphens finds Kaede alone, and so does a chat id.
      await page.getByLabel(words.search).fill(kaede.uuid.replaceAll('-', '').toUpperCase());
      await page.getByRole('button', { name: words.searchButton, exact: true }).click();
      await page.locator('form.search-form button[type="submit"]:not([disabled])').waitFor();
      expect(await page.locator('.player-list li').allTextContents()).toEqual([expect.stringContaining(kaede.uuid)]);
      await page.getByLabel(words.search).fill(chatid);
      await page.getByRole('button', { name: words.searchButton, exact: true }).click();
      await page.locator('form.search-form button[type="submit"]:not([disabled])').waitFor();
      await page.locator('.player-list li').filter({ hasText: chatid }).waitFor();
      expect(await page.locator('.player-list li').count()).toBe(1);
      await page.locator('.player-list li').filter({ hasText: kaede.mcid }).getByRole('button').click();

      await page.getByRole('heading', { name: kaede.mcid }).waitFor();
      for (const heading of [words.logins, words.playTime, words.chatAccounts, words.records, words.banlist]) {
        await page.getByRole('heading', { name: heading }).waitFor();
      }
      const playerPage = page.locator('.player-page');
      await playerPage.getByText('kaede.mori').first().waitFor();
      await playerPage.getByText('Momiji').first().waitFor();
      await playerPage.getByText('regular').first().waitFor();
      await playerPage.locator('.logins li').nth(1).waitFor();
      expect(await playerPage.locator('.record-list li').count()).toBe(RUNS.length + 3);
      await shoot(page, `player-${suffix}`);

      // The community's global ban, from the ban-list section: no lift here, and the page says why.
      await playerPage.locator('.banlist').getByRole('button', { name: `#${GBAN_ID}` }).click();
      await page.locator('.record-page').getByText(words.notHere).waitFor();
      expect(await page.locator('.record-page').getByRole('button', { name: words.lift }).count()).toBe(0);
      await shoot(page, `record-gban-${suffix}`);
      await page.getByRole('button', { name: words.backToPlayer }).click();
      await playerPage.getByRole('heading', { name: words.banlist }).waitFor();

      // The run's own game ban, opened from the player's page in the Bans tab.
      await playerPage.locator('.record-row').filter({ hasText: `(${suffix})` }).click();
      const record = page.locator('.record-page');
      await record.getByText(`Griefing at spawn (${suffix})`).first().waitFor();
      expect(await tab(page, words.bans).getAttribute('aria-current')).toBe('page');
      await shoot(page, `record-${suffix}`);

      // A note, saved; the history says so.
      await record.getByLabel(words.note, { exact: true }).fill(`Warned twice before (${suffix}). See the pictures.`);
      await record.getByRole('button', { name: words.saveNote }).click();
      await record.getByRole('status').filter({ hasText: words.noteSaved }).waitFor();
      await record.locator('.history li').filter({ hasText: words.noteChanged }).waitFor();

      // A PNG attached by the file input: its thumbnail is served by /evidence/{name} and loads.
      await record.getByLabel(new RegExp(words.attach)).setInputFiles({ name: 'spawn.png', mimeType: 'image/png', buffer: png });
      await record.getByRole('status').filter({ hasText: words.attached }).waitFor();
      const thumbnail = record.locator('.evidence img').first();
      await thumbnail.waitFor();
      expect(await thumbnail.getAttribute('src')).toMatch(/^\/evidence\/[0-9a-f]{32}\.png$|^http.*\/evidence\/[0-9a-f]{32}\.png$/);
      await page.waitForFunction((img: Img) => img.complete && img.naturalWidth === 320, await thumbnail.elementHandle());
      await record.locator('.history li').filter({ hasText: words.added }).waitFor();
      await shoot(page, `record-evidence-${suffix}`);

      // Removing asks first; cancelling keeps the picture, confirming removes it.
      const picture = record.locator('.evidence li').first();
      await picture.getByRole('button', { name: words.remove }).click();
      await picture.getByRole('group').waitFor();
      await shoot(page, `record-remove-confirm-${suffix}`);
      await picture.getByRole('group').getByRole('button', { name: run.lang === 'ja' ? 'キャンセル' : 'Cancel' }).click();
      await picture.getByRole('button', { name: words.remove }).click();
      await picture.getByRole('group').getByRole('button', { name: run.lang === 'ja' ? '削除する' : 'Remove' }).click();
      await record.getByRole('status').filter({ hasText: words.removed }).waitFor();
      expect(await record.locator('.evidence img').count()).toBe(0);

      // Lifting asks first, with an optional reason.
      await record.getByRole('button', { name: words.lift }).click();
      await record.getByLabel(words.liftReason).fill('Appeal accepted');
      await shoot(page, `record-lift-confirm-${suffix}`);
      await record.getByRole('group').getByRole('button', { name: words.liftConfirm, exact: true }).click();
      await record.locator('.state.lifted').waitFor();
      await record.getByText('Appeal accepted').first().waitFor();
      await record.locator('dd').filter({ hasText: run.lang === 'ja' ? '運営キー「ops-alice」' : 'the operator key “ops-alice”' }).first().waitFor();
      await record.locator('.history li').filter({ hasText: words.liftedEntry }).first().waitFor();
      expect(await record.getByRole('button', { name: words.lift }).count()).toBe(0);
      await shoot(page, `record-lifted-${suffix}`);

      // Back on the player's page, the record is lifted there too.
      await page.getByRole('button', { name: words.backToPlayer }).click();
      const lifted = page.locator('.player-page .record-row').filter({ hasText: `(${suffix})` });
      await lifted.locator('.state.lifted').waitFor();

      // Bans: newest first; kind and state filters.
      await tab(page, words.bans).click();
      await page.locator('.record-list li').first().waitFor();
      await page.getByRole('button', { name: words.more }).waitFor();
      await shoot(page, `bans-${suffix}`);
      const filters = page.locator('form.filters');
      for (const kind of ['vban', 'eban', 'chatban', 'gban', 'lban']) {
        await filters.locator(`input[value="${kind}"]`).uncheck();
      }
      await filters.getByRole('button', { name: words.apply }).click();
      await listLoaded(page);
      expect((await rows(page)).every((line) => line.startsWith('Jail'))).toBe(true);
      expect(await page.locator('.record-list li').count()).toBe(30);
      await page.getByRole('button', { name: words.more }).click();
      await page.locator('.record-list li').nth(33).waitFor();
      expect(await page.getByRole('button', { name: words.more }).count()).toBe(0);
      // Only lifted records, of every kind: the eban lifted in game and the game bans lifted here so far.
      await filters.getByRole('button', { name: words.clear }).click();
      await listLoaded(page);
      await filters.getByRole('button', { name: words.stateLifted, exact: true }).click();
      await listLoaded(page);
      await page.locator('.record-list li').filter({ hasText: 'Building in the protected area' }).waitFor();
      expect((await rows(page)).every((line) => line.includes(words.stateLifted))).toBe(true);
      // By issuer and by time: Notch's records of November, then none before October.
      await filters.getByRole('button', { name: words.stateAll, exact: true }).click();
      await listLoaded(page);
      await filters.getByLabel(words.issuer).fill('Notch');
      await filters.getByLabel(words.from).fill('2026-11-01');
      await filters.getByLabel(words.to).fill('2026-11-30');
      await filters.getByRole('button', { name: words.apply }).click();
      await listLoaded(page);
      expect(await page.locator('.record-list li').count()).toBe(RUNS.length + 1);
      await shoot(page, `bans-filtered-${suffix}`);
      await filters.getByLabel(words.from).fill('2026-01-01');
      await filters.getByLabel(words.to).fill('2026-09-30');
      await filters.getByRole('button', { name: words.apply }).click();
      await listLoaded(page);
      await page.getByText(words.noMatch).waitFor();

      await page.evaluate(() => localStorage.clear());
      await page.close();
      expect(browser.problems).toEqual([]);
    }, 180_000);
  }

  it('gives a club admin the Players and Bans tabs (not the ban-list sync), and shows a refused picture and a refused lift with message_ja', async () => {
    browser.problems.length = 0;
    const page = await browser.page(390, 844);
    await page.context().clearCookies();
    await page.goto(`${app.baseUrl}/console?lang=ja`);
    await page.getByRole('button', { name: 'クラブ管理者' }).click();
    await page.getByLabel('ゲームIDまたはUUID').fill(admin.mcid);
    await page.getByLabel('パスワード').fill(PASSWORD);
    await page.getByRole('button', { name: 'サインイン' }).click();
    await page.getByRole('heading', { name: WORDS.ja.queue }).waitFor();
    expect(await page.getByRole('navigation').getByRole('button').allTextContents()).toEqual(['申請', '自治体', 'プレイヤー', 'BAN・処罰']);

    await tab(page, WORDS.ja.bans).click();
    await page.locator('.record-list .record-row').filter({ hasText: 'Spam in chat' }).click();
    const record = page.locator('.record-page');
    await record.getByText('Spam in chat').first().waitFor();
    // A text file is no picture: the service's 415, in Japanese, and nothing is stored.
    const text = Buffer.from('not a picture');
    const refusedByApi = await fetch(`${app.baseUrl}/moderation/records/chatban/${await chatbanId()}/evidence`, { method: 'POST', headers: { 'x-api-key': operatorKey, 'content-type': 'text/plain' }, body: text });
    const expected = ((await refusedByApi.json()) as { message_ja: string }).message_ja;
    await record.getByLabel(new RegExp(WORDS.ja.attach)).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: text });
    await record.getByRole('alert').filter({ hasText: expected }).waitFor();
    expect(await record.locator('.evidence img').count()).toBe(0);
    await shoot(page, 'record-refused-ja-390');

    // Lifted by an operator meanwhile: the admin's lift is a 409, said in Japanese, and the page shows the record lifted.
    const id = await chatbanId();
    expect((await app.post(`/moderation/records/chatban/${id}/lift`, { reason: 'Done by another operator' }, { headers: { 'x-api-key': operatorKey } })).status).toBe(200);
    const again = await app.post<{ message_ja: string }>(`/moderation/records/chatban/${id}/lift`, {}, { headers: { 'x-api-key': operatorKey } });
    expect(again.status).toBe(409);
    await record.getByRole('button', { name: WORDS.ja.lift }).click();
    await record.getByRole('group').getByRole('button', { name: WORDS.ja.liftConfirm, exact: true }).click();
    await record.getByRole('alert').filter({ hasText: again.body.message_ja }).waitFor();
    await record.locator('.state.lifted').waitFor();
    await record.getByText('Done by another operator').first().waitFor();
    await shoot(page, 'record-lift-refused-ja-390');
    // The refused upload and lift are the failed requests of this page (the browser logs each 4xx).
    expect(browser.problems.filter((problem) => !/status of (415|409)/.test(problem))).toEqual([]);
    await page.close();
  }, 60_000);

  async function chatbanId(): Promise<string> {
    const list = await app.get<{ data: { items: Array<{ id: string; reason: string }> } }>('/moderation/records', { query: { kind: 'chatban' }, headers: { 'x-api-key': operatorKey } });
    return list.body.data.items.find((item) => item.reason === 'Spam in chat')!.id;
  }
});
