import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { square } from '../support/cities';
import { ClubUser, newPlayer, registerClubUser, TestApp } from '../support/test-app';
import { ARTIFACTS, TestBrowser } from './browser';

declare const document: { documentElement: { scrollWidth: number } };
declare const localStorage: { clear(): void };

const PASSWORD = 'pages-password-1';
/**
 * Where the pictures go: test/artifacts/console by default; the committed ones in docs/console are
 * taken with `CONSOLE_SCREENSHOTS=docs/console npx jest --selectProjects browser --testPathPattern console-pages`.
 */
const OUT = process.env.CONSOLE_SCREENSHOTS ? resolve(process.env.CONSOLE_SCREENSHOTS) : join(ARTIFACTS, 'console');

const WORDS = {
  en: { apiKey: 'API key', signIn: 'Sign in', queue: 'Pending requests', cities: 'Cities', banlist: 'Ban list', search: 'Search cities by name or reading', account: 'Club account', myRequests: 'My city requests', gameId: 'Game id or uuid', password: 'Password', unscheduled: 'No schedule runs on this server', history: 'Registration approved' },
  ja: { apiKey: 'APIキー', signIn: 'サインイン', queue: '審査待ちの申請', cities: '自治体', banlist: 'BANリスト', search: '名前または読みで自治体を検索', account: 'クラブアカウント', myRequests: '自分の自治体申請', gameId: 'ゲームIDまたはUUID', password: 'パスワード', unscheduled: 'このサーバーでは定期実行されません', history: '新規登録を承認' },
} as const;

/**
 * Every page of the operator console and the account page, in Japanese and English, at 1440 and
 * 375 px: nothing sticks out sideways, nothing logs an error, and each page is photographed (the
 * pictures in docs/console are these). This server has no ban-list upstream, so the ban-list tab
 * must say that no schedule runs.
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
    await create({ cityName: 'Sakura', cityNameKana: 'さくら', corners: square(0, -20, 40), count: 1600, summary: 'Cherry-tree hills' }, undefined, true);
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
        await shoot(page, `review-${suffix}`);
        await request.locator('button.request-head').click();

        // A rename onto a name taken meanwhile: the conflict names the city holding it by its city id.
        const rename = page.locator('ul.queue > li').filter({ hasText: 'Nishi' });
        await rename.locator('button.request-head').click();
        await rename.locator('.conflicts li').filter({ hasText: 'Higashi' }).waitFor();
        await shoot(page, `review-conflict-${suffix}`);
        await rename.locator('button.request-head').click();

        await page.getByRole('button', { name: words.cities, exact: true }).click();
        await page.getByLabel(words.search).waitFor();
        await page.locator('.city-list li').nth(3).waitFor();
        await shoot(page, `cities-${suffix}`);

        await page.getByRole('button', { name: /Minato/ }).click();
        await page.getByRole('img', { name: /Minato/ }).locator('polygon.current').waitFor();
        await page.locator('.history li').filter({ hasText: words.history }).waitFor();
        await shoot(page, `city-${suffix}`);

        await page.getByRole('button', { name: words.banlist }).click();
        await page.getByText(words.unscheduled).waitFor();
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
        await shoot(page, `account-${suffix}`);

        await page.evaluate(() => localStorage.clear());
        await page.close();
        expect(browser.problems).toEqual([]);
      }, 120_000);
    }
  }
});
