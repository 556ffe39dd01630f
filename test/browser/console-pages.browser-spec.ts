import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { square } from '../support/cities';
import { ClubUser, newPlayer, registerClubUser, TestApp } from '../support/test-app';
import { ARTIFACTS, mapLabelProblems, TestBrowser } from './browser';

declare const document: { documentElement: { scrollWidth: number } };
declare const localStorage: { clear(): void };

const PASSWORD = 'pages-password-1';
/**
 * Where the pictures go: test/artifacts/console by default; the committed ones in docs/console are
 * taken with `CONSOLE_SCREENSHOTS=docs/console npx jest --selectProjects browser --testPathPattern console-pages`.
 */
const OUT = process.env.CONSOLE_SCREENSHOTS ? resolve(process.env.CONSOLE_SCREENSHOTS) : join(ARTIFACTS, 'console');

const WORDS = {
  en: { syncOff: 'The sync is off on this server: BANLIST_SOURCE_URL is not set', runSync: 'Run a ban-list sync now', group: 'Member', apiKey: 'API key', signIn: 'Sign in', queue: 'Pending requests', cities: 'Cities', banlist: 'Ban list', search: 'Search cities by name or reading', account: 'Club account', myRequests: 'My city requests', gameId: 'Game id or uuid', password: 'Password', unscheduled: 'No schedule runs on this server', history: 'Registration approved' },
  ja: { syncOff: 'このサーバーでは同期が無効です。BANLIST_SOURCE_URL が設定されていない', runSync: '今すぐ同期する', group: 'メンバー', apiKey: 'APIキー', signIn: 'サインイン', queue: '審査待ちの申請', cities: '自治体', banlist: 'BANリスト', search: '名前または読みで自治体を検索', account: 'クラブアカウント', myRequests: '自分の自治体申請', gameId: 'ゲームIDまたはUUID', password: 'パスワード', unscheduled: 'このサーバーでは定期実行されません', history: '新規登録を承認' },
} as const;

/**
 * Every page of the operator console and the account page, in Japanese and English, at 1440 and
 * 375 px: nothing sticks out sideways, nothing logs an error, and each page is photographed (the
 * pictures in docs/console are these). This server has no ban-list upstream, so the ban-list tab
 * must say that the sync is off, and why, before any click. Every map's texts are checked with the
 * browser's own boxes: none overlaps another, none is clipped. Times carry their zone.
 */
describe('console pages at both widths and in both languages (browser)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let operatorKey: string;
  let member: ClubUser;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    app = await TestApp.start({ RECAPTCHA_SECRET: '', BANLIST_SOURCE_URL: '' });
    const gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'ops');
    const operator = { headers: { 'x-api-key': operatorKey } };
    member = await registerClubUser(app, gameServerKey, { password: PASSWORD });
    const create = async (fields: Record<string, unknown>, usertoken?: string, force = false): Promise<{ cityId: number; requestId: number }> => {
      let token = usertoken;
      if (!token) {
        const player = newPlayer();
        token = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      }
      const result = await app.post<{ cityId: number; requestId: number }>('/cities/create', { usertoken: token, recaptcha: 'x', ...fields, ...(force ? { force: true } : {}) }, force ? operator : {});
      if (result.status !== 201) {
        throw new Error(`create failed: ${result.status} ${result.text}`);
      }
      return result.body;
    };
    // Registered cities around the requests.
    // A long name reaching into the review map from its edge: it must be neither clipped nor spill out.
    await create({ cityName: 'Sakuragaoka Riverside Garden Terrace', cityNameKana: 'さくらがおか', corners: square(0, -20, 40), count: 1600, summary: 'Cherry-tree hills' }, undefined, true);
    // Far from the origin (four-digit ticks) and with a name longer than its outline is wide.
    await create({ cityName: 'Shin-Yokohama Riverside Terrace', cityNameKana: 'しんよこはま', corners: square(2200, 100, 30), count: 900 }, undefined, true);
    await create({ cityName: 'Kohoku New Town', cityNameKana: 'こうほく', corners: square(2232, 100, 12), count: 144 }, undefined, true);
    await create({ cityName: 'Aoba', cityNameKana: 'あおば', corners: square(-80, 35, 30), count: 900 }, undefined, true);
    // A city with a history: filed by a player, approved by the operator, then renamed on request.
    const minato = await create({ cityName: 'Minato', cityNameKana: 'みなと', corners: square(-60, -20, 30), count: 900, remarks: 'Harbour district' }, member.usertoken);
    expect((await app.post(`/cities/approval/create/${minato.cityId}`, undefined, operator)).status).toBe(200);
    // Pending: a region change of Minato reaching towards Sakura, a rename onto a taken name, a new city.
    const grown = await app.request('PATCH', `/cities/edit/${minato.cityId}`, {
      body: { usertoken: member.usertoken, recaptcha: 'x', corners: square(-60, -20, 45), count: 2025, remarks: 'The harbour grows east' },
    });
    expect(grown.status).toBe(200);
    const owner = await registerClubUser(app, gameServerKey, { password: PASSWORD });
    const nishi = await create({ cityName: 'Nishi', cityNameKana: 'にし', corners: square(-140, -60, 20), count: 400 }, owner.usertoken, true);
    const renamed = await app.request('PATCH', `/cities/edit/${nishi.cityId}`, { body: { usertoken: owner.usertoken, recaptcha: 'x', cityName: 'Higashi', remarks: 'Named after the east gate' } });
    expect(renamed.status).toBe(200);
    // The name is taken meanwhile: the rename now conflicts.
    await create({ cityName: 'Higashi', cityNameKana: 'ひがし', corners: square(150, 80, 20), count: 400 }, undefined, true);
    await create({ cityName: 'Chuo', cityNameKana: 'ちゅうおう', corners: square(0, 60, 12), count: 144, summary: 'The town hall' });
    browser = await TestBrowser.launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** No two texts of a map overlap and none is clipped, in the browser's own boxes. */
  async function expectClearMaps(page: Page): Promise<void> {
    const { problems, texts, maps } = await mapLabelProblems(page);
    expect(maps).toBeGreaterThan(0);
    expect(texts).toBeGreaterThan(4);
    expect(problems).toEqual([]);
  }

  /** A time with its zone: "UTC", "GMT+9" or an abbreviation at its end. */
  const ZONED = /(UTC|GMT[+−-]\d+(:\d\d)?|[A-Z]{2,5})$/;

  async function shoot(page: Page, name: string): Promise<void> {
    const width = page.viewportSize()!.width;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
  }

  for (const lang of ['ja', 'en'] as const) {
    for (const width of [1440, 375]) {
      it(`shows every page in ${lang} at ${width} px`, async () => {
        const words = WORDS[lang];
        const suffix = `${lang}-${width}`;
        browser.problems.length = 0;
        const page = await browser.page(width, width > 1000 ? 900 : 812);
        // Signed out: the console's session is a cookie, shared by the profile's tabs.
        await page.context().clearCookies();
        await page.goto(`${app.baseUrl}/console?lang=${lang}`);
        await page.getByLabel(words.apiKey).waitFor();
        await shoot(page, `sign-in-${suffix}`);

        await page.getByLabel(words.apiKey).fill(operatorKey);
        await page.getByRole('button', { name: words.signIn }).click();
        await page.getByRole('heading', { name: words.queue }).waitFor();
        await page.locator('ul.queue > li').nth(2).waitFor();
        await shoot(page, `queue-${suffix}`);

        const request = page.locator('ul.queue > li').filter({ hasText: 'Minato' });
        await request.locator('button.request-head').click();
        const drawing = request.getByRole('img', { name: /Minato/ });
        for (const kind of ['requested', 'current', 'city']) {
          await drawing.locator(`polygon.${kind}`).first().waitFor();
        }
        await request.locator('.conflicts, .ok').first().waitFor();
        // Before → after: the blocks and corners now, then the requested ones.
        const blocks = request.locator('dd.change-value[data-field="count"]');
        await blocks.waitFor();
        expect(await blocks.locator('.before').textContent()).toMatch(/900/);
        expect(await blocks.locator('.after').textContent()).toMatch(/2,025/);
        expect(await request.locator('dd[data-field="corners"] .before').textContent()).toContain('(-31, 9)');
        expect(await request.locator('dd[data-field="corners"] .after').textContent()).toContain('(-16, 24)');
        expect(await request.locator('dd.change-value[data-field="remarks"] .before').textContent()).toBe('Harbour district');
        await expectClearMaps(page);
        await shoot(page, `review-${suffix}`);
        await request.locator('button.request-head').click();

        // A rename onto a name taken meanwhile: the conflict names the city holding it by its city id.
        const rename = page.locator('ul.queue > li').filter({ hasText: 'Nishi' });
        await rename.locator('button.request-head').click();
        await rename.locator('.conflicts li').filter({ hasText: 'Higashi' }).waitFor();
        // Before → after for every changed field: the name now, then the one asked for.
        const renamedTo = rename.locator('dd.change-value[data-field="cityName"]');
        await renamedTo.waitFor();
        expect(await renamedTo.locator('.before').textContent()).toBe('Nishi');
        expect(await renamedTo.locator('.after').textContent()).toBe('Higashi');
        expect(await rename.locator('dd.change-value[data-field="remarks"] .before').textContent()).toBe('—');
        expect(await rename.locator('dd.change-value[data-field="remarks"] .after').textContent()).toBe('Named after the east gate');
        await expectClearMaps(page);
        await shoot(page, `review-conflict-${suffix}`);
        await rename.locator('button.request-head').click();

        await page.getByRole('button', { name: words.cities, exact: true }).click();
        await page.getByLabel(words.search).waitFor();
        await page.locator('.city-list li').nth(3).waitFor();
        await shoot(page, `cities-${suffix}`);

        await page.getByRole('button', { name: /Minato/ }).click();
        await page.getByRole('img', { name: /Minato/ }).locator('polygon.current').waitFor();
        await page.locator('.history li').filter({ hasText: words.history }).waitFor();
        await expectClearMaps(page);
        for (const time of await page.locator('.history li .mono').allTextContents()) {
          expect(time.trim()).toMatch(ZONED);
        }
        await shoot(page, `city-${suffix}`);

        // Far out (x 2200): four-digit ticks thinned, a long name beside or inside its small outline.
        await page.getByRole('button', { name: /^← / }).click();
        await page.getByRole('button', { name: /Kohoku/ }).click();
        await page.getByRole('img', { name: /Kohoku/ }).locator('polygon.current').waitFor();
        await expectClearMaps(page);
        await shoot(page, `city-far-${suffix}`);

        await page.getByRole('button', { name: words.banlist }).click();
        // Off, and why, before any click; no button that could only fail.
        await page.getByText(words.syncOff).waitFor();
        expect(await page.getByRole('button', { name: words.runSync }).count()).toBe(0);
        expect(await page.getByText(words.unscheduled).count()).toBe(0);
        await shoot(page, `banlist-${suffix}`);

        await page.goto(`${app.baseUrl}/account?lang=${lang}`);
        await page.getByRole('heading', { name: words.account }).waitFor();
        await page.getByLabel(words.gameId).waitFor();
        await shoot(page, `account-sign-in-${suffix}`);
        await page.getByLabel(words.gameId).fill(member.mcid);
        await page.getByLabel(words.password, { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: words.signIn }).click();
        await page.getByRole('heading', { name: words.myRequests }).waitFor();
        await page.locator('.my-requests li').first().waitFor();
        // The group in words, not the stored `default`.
        const group = page.locator('dt', { hasText: lang === 'en' ? 'Group' : 'グループ' }).locator('xpath=following-sibling::dd[1]');
        expect((await group.textContent())?.trim()).toBe(words.group);
        await shoot(page, `account-${suffix}`);

        await page.evaluate(() => localStorage.clear());
        await page.close();
        expect(browser.problems).toEqual([]);
      }, 120_000);
    }
  }
});
