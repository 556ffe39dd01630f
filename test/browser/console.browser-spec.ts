import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { square } from '../support/cities';
import { FakeBanlist } from '../support/fake-banlist';
import { ApiKeysService } from '../../src/api-keys/api-keys.service';
import { ClubAccountsService } from '../../src/club/club-accounts.service';
import { ClubUser, newPlayer, registerClubUser, TestApp } from '../support/test-app';
import { ARTIFACTS, screenshot, TestBrowser } from './browser';

// The page's globals, as the functions passed to page.evaluate() see them (the test's own tsconfig has no DOM lib).
declare const sessionStorage: { length: number; getItem(key: string): string | null };
declare const localStorage: { clear(): void };
declare const document: { documentElement: { lang: string; scrollWidth: number }; cookie: string };

const PASSWORD = 'console-password-1';

interface RequestBody {
  id: number;
  type: string;
  status: string;
  cityId: number;
  rejectReason: string | null;
}

/**
 * The operator console (docs/console-and-maps.md) in Debian's Chromium against the real service on SQLite:
 * sign-in with an operator key and with a club admin, the queue, approving, rejecting, a 409,
 * both languages, both widths. Screenshots go to test/artifacts/.
 */
describe('operator console (browser)', () => {
  let app: TestApp;
  let banlist: FakeBanlist;
  let browser: TestBrowser;
  let gameServerKey: string;
  let operatorKey: string;
  let admin: ClubUser;
  let member: ClubUser;
  let owner: ClubUser;
  // Each test file has its own fresh database, so plain names are unique.
  const names = {
    toApprove: 'Minato',
    toReject: 'Kita',
    region: 'Chuo',
    conflicted: 'Nishi',
    taken: 'Higashi',
    adminOwn: 'Shinjuku',
    neighbour: 'Sakura',
    search: 'Aoba',
  };
  const operator = () => ({ headers: { 'x-api-key': operatorKey } });
  let takenId: number;
  let minatoOwner: string;

  async function createCity(fields: Record<string, unknown>, options: { force?: boolean; usertoken?: string } = {}): Promise<{ cityId: number; requestId: number }> {
    let usertoken = options.usertoken;
    if (!usertoken) {
      const player = newPlayer();
      usertoken = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    }
    const result = await app.post<{ cityId: number; requestId: number }>(
      '/cities/create',
      { usertoken, recaptcha: 'x', count: 100, ...fields, ...(options.force ? { force: true } : {}) },
      options.force ? operator() : {},
    );
    if (result.status !== 201) {
      throw new Error(`create failed: ${result.status} ${result.text}`);
    }
    return result.body;
  }

  async function pendingRequests(): Promise<RequestBody[]> {
    return (await app.get<{ data: RequestBody[] }>('/cities/requests', { ...operator(), query: { limit: 500 } })).body.data;
  }

  /** The console's session cookie as the browser holds it (the page itself cannot read it). */
  async function sessionCookie(page: Page): Promise<{ name: string; value: string; httpOnly: boolean; sameSite: string; path: string } | undefined> {
    return (await page.context().cookies(app.baseUrl)).find((cookie) => cookie.name === 'console_session');
  }

  /** A new tab, signed out: the console's session is a cookie, shared by every tab of the profile. */
  async function signedOutPage(): Promise<Page> {
    const page = await browser.page();
    await page.context().clearCookies();
    await page.goto(`${app.baseUrl}/console?lang=en`);
    return page;
  }

  /**
   * The queue has loaded (its Refresh button is enabled again): a session ended on the server
   * after this is met by the next call, not by the first load still in flight.
   */
  async function queueLoaded(page: Page): Promise<void> {
    await page.getByRole('heading', { name: 'Pending requests' }).waitFor();
    await page.locator('button:not([disabled])', { hasText: 'Refresh' }).waitFor();
  }

  /** After the session ended on the server, the next call returns the page to sign-in and says why. */
  async function expectSentBackToSignIn(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.getByText('Your session ended').count()).toBe(1);
  }

  async function signInWithKey(page: Page, key: string): Promise<void> {
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function signInWithAccount(page: Page, user: ClubUser): Promise<void> {
    await page.getByRole('button', { name: 'Club admin account' }).click();
    await page.getByLabel('Game id or uuid').fill(user.mcid);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** At phone width nothing may stick out sideways (no horizontal scrolling). */
  async function expectNoSidewaysScroll(page: Page): Promise<void> {
    const viewport = page.viewportSize()!.width;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport);
  }

  /** The labels of the requested-changes list of an open request. */
  async function fieldLabels(item: Locator): Promise<string[]> {
    return (await item.locator('dl.fields dt').allTextContents()).map((text) => text.trim());
  }

  /** Corner coordinates listed as text never break inside a pair: each is one line box. */
  async function expectWholeCoordinates(scope: Locator): Promise<void> {
    const lines = await scope.locator('.coord').evaluateAll((spans: Array<{ getClientRects(): { length: number } }>) => spans.map((span) => span.getClientRects().length));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((count) => count === 1)).toBe(true);
  }

  /** Every outline's name is drawn wholly inside the map (none cut at the map's edge). */
  async function expectNamesInsideMap(drawing: Locator): Promise<void> {
    type Box = { left: number; right: number; top: number; bottom: number };
    type Element = { getBoundingClientRect(): Box; querySelector(selector: string): Element; querySelectorAll(selector: string): Element[]; textContent: string | null };
    const outside = await drawing.evaluate((svg: Element) => {
      const frame = svg.querySelector('svg.map').getBoundingClientRect();
      return Array.from(svg.querySelectorAll('text.name'))
        .map((text) => ({ text: text.textContent, box: text.getBoundingClientRect() }))
        .filter(({ box }) => box.left < frame.left - 1 || box.right > frame.right + 1 || box.top < frame.top - 1 || box.bottom > frame.bottom + 1)
        .map(({ text }) => text);
    });
    expect(outside).toEqual([]);
  }

  function requestItem(page: Page, cityName: string): Locator {
    return page.getByRole('listitem').filter({ has: page.getByRole('button', { name: new RegExp(cityName) }) });
  }

  async function openRequest(page: Page, cityName: string): Promise<Locator> {
    const item = requestItem(page, cityName);
    await item.getByRole('button', { name: new RegExp(cityName) }).first().click();
    await item.getByRole('img', { name: new RegExp(cityName) }).or(item.getByText(/changes no outline|区域を変更しません/)).first().waitFor();
    return item;
  }

  beforeAll(async () => {
    banlist = new FakeBanlist();
    const banlistUrl = await banlist.start();
    // No CAPTCHA in browser tests: verification off (no secret), so club sign-in works without the widget.
    app = await TestApp.start({ RECAPTCHA_SECRET: '', BANLIST_SOURCE_URL: banlistUrl });
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'console-operator');
    admin = await registerClubUser(app, gameServerKey, { admin: true, password: PASSWORD });
    member = await registerClubUser(app, gameServerKey, { password: PASSWORD });
    owner = await registerClubUser(app, gameServerKey, { password: PASSWORD });

    // Registered cities around the requests.
    await createCity({ cityName: names.neighbour, cityNameKana: 'さくら', corners: square(120, 0, 40), count: 1600 }, { force: true });
    await createCity({ cityName: names.search, cityNameKana: 'あおば', corners: square(-300, -300, 30), count: 900 }, { force: true });
    // A region request: the owner's city, asked to grow.
    const region = await createCity({ cityName: names.region, cityNameKana: 'ちゅうおう', corners: square(0, 0, 50), count: 2500 }, { force: true, usertoken: owner.usertoken });
    const grown = await app.request('PATCH', `/cities/edit/${region.cityId}`, { body: { usertoken: owner.usertoken, recaptcha: 'x', corners: square(0, 0, 80), count: 6400 } });
    expect(grown.status).toBe(200);
    // An update whose new name is taken meanwhile: approving it is a 409.
    const other = await createCity({ cityName: names.conflicted, cityNameKana: 'にし', corners: square(0, 200, 20), count: 400 }, { force: true, usertoken: member.usertoken });
    const renamed = await app.request('PATCH', `/cities/edit/${other.cityId}`, { body: { usertoken: member.usertoken, recaptcha: 'x', cityName: names.taken, remarks: 'Named after the east gate' } });
    expect(renamed.status).toBe(200);
    takenId = (await createCity({ cityName: names.taken, cityNameKana: 'ひがし', corners: square(300, 300, 10) }, { force: true })).cityId;
    // Two plain create requests and one filed by the club admin.
    const minatoPlayer = newPlayer();
    minatoOwner = minatoPlayer.mcid;
    await createCity(
      { cityName: names.toApprove, cityNameKana: 'みなと', corners: square(-100, 0, 10), remarks: 'Harbour district' },
      { usertoken: await app.issueUserKey(gameServerKey, minatoPlayer.uuid, minatoPlayer.mcid) },
    );
    await createCity({ cityName: names.toReject, cityNameKana: 'きた', corners: square(-100, 100, 10) });
    await createCity({ cityName: names.adminOwn, cityNameKana: 'しんじゅく', corners: square(-200, 0, 10) }, { usertoken: admin.usertoken });

    browser = await TestBrowser.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await banlist?.stop();
  });

  it('is Japanese by default, at 375 px', async () => {
    const page = await browser.page(375, 812);
    await page.goto(`${app.baseUrl}/console`);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await expect(page.getByRole('heading', { name: '自治体管理コンソール' }).isVisible()).resolves.toBe(true);
    await page.getByLabel('APIキー').waitFor();
    expect(await page.getByRole('button', { name: 'サインイン' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'sign-in-ja-375');
    await page.close();
  });

  it('switches to English with ?lang=en and remembers the choice', async () => {
    const page = await browser.page();
    await page.goto(`${app.baseUrl}/console?lang=en`);
    await page.getByLabel('API key').waitFor();
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    await screenshot(page, 'sign-in-en-1440');
    await page.goto(`${app.baseUrl}/console`);
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.close();
  });

  it('refuses an API key without the operator scope, and an unknown key, with a clear message', async () => {
    const page = await browser.page();
    await page.goto(`${app.baseUrl}/console?lang=en`);
    await signInWithKey(page, gameServerKey);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('does not have the operator scope');
    await signInWithKey(page, 'csk_unknownunknownunknownunknownunknown1234');
    await page.getByRole('alert').filter({ hasText: 'Unknown API key' }).waitFor();
    // The error belongs to the API-key form: switching to the club-admin sign-in (and back) clears it.
    await page.getByRole('button', { name: 'Club admin account' }).click();
    await page.getByLabel('Game id or uuid').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('button', { name: 'Operator API key' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await sessionCookie(page)).toBeUndefined();
    await page.close();
  });

  describe('signed in with an operator key', () => {
    let page: Page;

    beforeAll(async () => {
      page = await signedOutPage();
      await signInWithKey(page, operatorKey);
      await page.getByRole('heading', { name: 'Pending requests' }).waitFor();
    });

    afterAll(async () => {
      await page.close();
    });

    it('keeps no key in the page: the session is an HttpOnly, SameSite=Strict cookie the page cannot read', async () => {
      const stored = await page.evaluate(() => ({ session: JSON.stringify(sessionStorage), local: JSON.stringify(localStorage), cookie: document.cookie }));
      expect(stored.session).not.toContain(operatorKey);
      expect(stored.local).not.toContain(operatorKey);
      expect(stored.cookie).toBe('');
      const cookie = await sessionCookie(page);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(cookie?.value).not.toContain(operatorKey);
    });

    it('stays signed in across a reload (the page asks the server)', async () => {
      await page.reload();
      await page.getByRole('heading', { name: 'Pending requests' }).waitFor();
      expect(await page.getByRole('button', { name: 'Ban list' }).count()).toBe(1);
    });

    it('lists the pending requests oldest first, each with type, city, requester and age', async () => {
      await requestItem(page, names.toApprove).waitFor();
      const items = page.locator('ul.queue > li');
      const texts = await items.allTextContents();
      const order = [names.region, names.conflicted, names.toApprove, names.toReject, names.adminOwn].map((name) => texts.findIndex((text) => text.includes(name)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(order.every((index) => index >= 0)).toBe(true);
      const first = texts.find((text) => text.includes(names.toApprove))!;
      expect(first).toMatch(/New city/);
      expect(first).toMatch(/Requester: p\d+_/);
      expect(first).toMatch(/Filed: (now|\d+ minutes? ago|this minute)/);
      // The number in the queue says what it counts: a request, not a city.
      const pending = (await app.get<{ data: Array<RequestBody & { changes: { cityName?: string } }> }>('/cities/requests', { ...operator(), query: { limit: 500 } })).body.data;
      const requestId = pending.find((request) => request.changes.cityName === names.toApprove)!.id;
      expect(first).toContain(`request #${requestId}`);
      await screenshot(page, 'queue-en-1440');
    });

    it('approves a create: the city appears in GET /cities', async () => {
      const item = await openRequest(page, names.toApprove);
      // The request's remarks are labelled in words, once (not the raw key "remarks").
      const labels = await fieldLabels(item);
      expect(labels).not.toContain('remarks');
      expect(labels.filter((label) => label === 'Remarks')).toHaveLength(1);
      await item.getByText('Harbour district').waitFor();
      await item.getByRole('button', { name: 'Approve', exact: true }).click();
      await page.getByRole('status').filter({ hasText: `Approved: ${names.toApprove}` }).waitFor();
      expect(await requestItem(page, names.toApprove).count()).toBe(0);
      const cities = (await app.get<{ data: Array<{ name: string }> }>('/cities')).body.data;
      expect(cities.map((city) => city.name)).toContain(names.toApprove);
    });

    it("shows the approved city's history in words: what happened, by whom, for which request", async () => {
      await page.getByRole('button', { name: 'Cities' }).click();
      await page.getByRole('button', { name: new RegExp(names.toApprove) }).click();
      const history = page.locator('.history li');
      await history.nth(1).waitFor();
      const lines = await history.allTextContents();
      expect(lines.join('\n')).not.toMatch(/create_|player:|apikey:|state:|nameKana|pending/);
      const filed = lines.find((line) => line.includes('Registration requested'))!;
      expect(filed).toContain(`by the administrator ${minatoOwner}`);
      expect(filed).toMatch(/request #\d+/);
      expect(filed).toContain('Name: Minato');
      const approved = lines.find((line) => line.includes('Registration approved'))!;
      expect(approved).toContain('by the operator key “console-operator”');
      await page.getByRole('button', { name: '日本語' }).click();
      const ja = (await history.allTextContents()).join('\n');
      expect(ja).toContain('新規登録の申請');
      expect(ja).toContain('新規登録を承認');
      expect(ja).toContain('運営キー「console-operator」');
      expect(ja).toContain(`管理者 ${minatoOwner}`);
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('button', { name: 'Requests' }).click();
      await requestItem(page, names.region).waitFor();
    });

    it("draws a region request's requested outline beside the current one, over the cities around", async () => {
      const item = await openRequest(page, names.region);
      const drawing = item.getByRole('img', { name: new RegExp(names.region) });
      // The current outline and the cities around arrive with their own fetches: wait for each.
      for (const kind of ['requested', 'current', 'city']) {
        await drawing.locator(`polygon.${kind}`).first().waitFor();
      }
      const classes = await drawing.locator('polygon').evaluateAll((polygons: Array<{ getAttribute(name: string): string | null }>) => polygons.map((polygon) => polygon.getAttribute('class')));
      expect(classes).toEqual(expect.arrayContaining(['outline requested', 'outline current', 'outline city']));
      const requested = await drawing.locator('polygon.requested').getAttribute('points');
      expect(requested).toBe(square(0, 0, 80).map((corner) => `${corner.x},${corner.z}`).join(' '));
      await item.getByText('None: it can be approved.').waitFor();
      await screenshot(page, 'review-region-en-1440');
      // The picture in docs/console-and-maps.md (docs/console-review.png) is a copy of this one.
      await item.screenshot({ path: join(ARTIFACTS, 'review-region-item-en-1440.png') });
      await item.getByRole('button', { name: new RegExp(names.region) }).first().click();
    });

    it('rejects with a reason: the reason is stored in the request', async () => {
      const before = (await pendingRequests()).find((request) => request.type === 'create' && request.cityId > 0 && true);
      expect(before).toBeDefined();
      const item = await openRequest(page, names.toReject);
      await item.getByLabel('Reason for rejection (optional)').fill('Too close to the spawn');
      await item.getByRole('button', { name: 'Reject', exact: true }).click();
      await page.getByRole('status').filter({ hasText: `Rejected: ${names.toReject}` }).waitFor();
      const rejected = (await app.get<{ data: Array<RequestBody & { changes: { cityName?: string } }> }>('/cities/requests', { ...operator(), query: { status: 'rejected', limit: 500 } })).body.data;
      const request = rejected.find((candidate) => candidate.changes.cityName === names.toReject);
      expect(request?.rejectReason).toBe('Too close to the spawn');
    });

    it('shows a 409 on approval with its message; the request stays pending', async () => {
      const item = await openRequest(page, names.conflicted);
      // The conflict names the city holding the name by its city id (the queue numbers requests).
      await item.getByText(`Name taken by ${names.taken} (city id ${takenId})`).waitFor();
      const labels = await fieldLabels(item);
      expect(labels).toEqual(expect.arrayContaining(['Name', 'Remarks']));
      expect(labels).not.toContain('remarks');
      await item.getByRole('button', { name: 'Approve', exact: true }).click();
      const alert = item.getByRole('alert');
      await alert.waitFor();
      const pending = (await pendingRequests()).find((request) => request.type === 'update');
      expect(pending).toBeDefined();
      // The same approval through the API is still refused the same way: the page shows that message.
      const again = await app.post<{ message: string; message_ja?: string }>(`/cities/approval/update/${pending!.cityId}`, undefined, operator());
      expect(again.status).toBe(409);
      expect(await alert.textContent()).toBe(again.body.message);
      await page.reload();
      await requestItem(page, names.conflicted).waitFor();
    });

    it('shows the 409 in Japanese (message_ja) in Japanese mode', async () => {
      await page.getByRole('button', { name: '日本語' }).click();
      const item = await openRequest(page, names.conflicted);
      await item.getByRole('button', { name: '承認', exact: true }).click();
      const alert = item.getByRole('alert');
      await alert.waitFor();
      const pending = (await pendingRequests()).find((request) => request.type === 'update')!;
      const again = await app.post<{ message: string; message_ja?: string }>(`/cities/approval/update/${pending.cityId}`, undefined, operator());
      expect(await alert.textContent()).toBe(again.body.message_ja ?? again.body.message);
      await item.getByText(`名前が重複：${names.taken}（自治体ID ${takenId}）`).waitFor();
      const labels = await fieldLabels(item);
      expect(labels.filter((label) => label === '備考')).toHaveLength(1);
      expect(labels).not.toContain('remarks');
      await page.setViewportSize({ width: 375, height: 812 });
      const region = await openRequest(page, names.region);
      await expectNoSidewaysScroll(page);
      // At phone width: coordinates wrap between corners only, and the neighbours' names stay whole.
      await expectWholeCoordinates(region);
      const drawing = region.getByRole('img', { name: new RegExp(names.region) });
      await drawing.locator('polygon.city').first().waitFor();
      await expectNamesInsideMap(drawing);
      await screenshot(page, 'review-ja-375');
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.getByRole('button', { name: 'English' }).click();
    });

    it('finds a city by its reading, shows its page with outline and history, and deletes it', async () => {
      await page.getByRole('button', { name: 'Cities' }).click();
      await page.getByLabel('Search cities by name or reading').fill('あお');
      const rows = page.getByRole('listitem').filter({ hasText: names.search });
      await expect(rows.count()).resolves.toBe(1);
      // Katakana finds the hiragana reading too.
      await page.getByLabel('Search cities by name or reading').fill('アオ');
      await expect(page.getByRole('listitem').filter({ hasText: names.search }).count()).resolves.toBe(1);
      await page.getByRole('button', { name: new RegExp(names.search) }).click();
      const drawing = page.getByRole('img', { name: new RegExp(names.search) });
      await drawing.waitFor();
      await page.getByRole('heading', { name: 'History' }).waitFor();
      await page.locator('.history li').first().waitFor();
      await screenshot(page, 'city-en-1440');
      await page.setViewportSize({ width: 375, height: 812 });
      await expectNoSidewaysScroll(page);
      await expectWholeCoordinates(page.locator('main'));
      await expectNamesInsideMap(drawing);
      await screenshot(page, 'city-en-375');
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.getByRole('button', { name: 'Delete city' }).click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('status').filter({ hasText: `Deleted: ${names.search}` }).waitFor();
      const cities = (await app.get<{ data: Array<{ name: string }> }>('/cities')).body.data;
      expect(cities.map((city) => city.name)).not.toContain(names.search);
    });

    it('runs a ban-list sync and shows its summary', async () => {
      await page.getByRole('button', { name: 'Ban list' }).click();
      // This server has an upstream, so its schedule is on: the page says so, with the schedule.
      await page.getByText('It also runs by itself on this server’s schedule (0 0 */6 * * *, UTC)').waitFor();
      expect(await page.getByText('No schedule runs on this server').count()).toBe(0);
      await page.getByRole('button', { name: 'Run a ban-list sync now' }).click();
      const summary = page.getByRole('status').filter({ hasText: 'Players' });
      await summary.waitFor();
      expect(await summary.textContent()).toMatch(/Players\s*\d+/);
      // The sync is on here: the page lists the last runs, newest first, each time with its zone.
      const runs = page.locator('.recent-runs li');
      await runs.first().waitFor();
      expect(await runs.first().locator('.mono').textContent()).toMatch(/(UTC|GMT[+−-]\d+(:\d\d)?|[A-Z]{2,5})$/);
      expect(await page.getByText('The sync is off on this server').count()).toBe(0);
      // The pictures of the page with the sync on (docs/console/banlist-on-*.png are copies of these).
      for (const [lang, button] of [['en', 'English'], ['ja', '日本語']] as const) {
        await page.getByRole('button', { name: button }).click();
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: width > 1000 ? 900 : 812 });
          await expectNoSidewaysScroll(page);
          await screenshot(page, `banlist-on-${lang}-${width}`);
        }
      }
      await page.getByRole('button', { name: 'English' }).click();
      await page.setViewportSize({ width: 1440, height: 900 });
    });

    it('signs out: the session ends on the server and its old cookie is refused', async () => {
      const cookie = await sessionCookie(page);
      expect(cookie).toBeDefined();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      expect(await sessionCookie(page)).toBeUndefined();
      expect((await app.get('/cities/requests', { headers: { cookie: `${cookie!.name}=${cookie!.value}` } })).status).toBe(401);
      await page.reload();
      await page.getByLabel('API key').waitFor();
    });
  });

  describe('signed in as a club admin', () => {
    it("signs in with game id and password; the admin's own request cannot be decided, and says why", async () => {
      const page = await signedOutPage();
      await signInWithAccount(page, admin);
      await page.getByRole('heading', { name: 'Pending requests' }).waitFor();
      expect(await page.getByText(`Signed in as ${admin.mcid}`).count()).toBe(1);
      const own = await openRequest(page, names.adminOwn);
      expect(await own.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(true);
      expect(await own.getByRole('button', { name: 'Reject', exact: true }).isDisabled()).toBe(true);
      expect(await own.getByText('another admin or an operator must decide').count()).toBe(1);
      // Someone else's request: the buttons work.
      const other = await openRequest(page, names.region);
      expect(await other.getByRole('button', { name: 'Approve', exact: true }).isEnabled()).toBe(true);
      // The ban-list sync needs the operator key: no tab for club admins.
      expect(await page.getByRole('button', { name: 'Ban list' }).count()).toBe(0);
      await page.close();
    });

    it('refuses an account that is not a club admin', async () => {
      const page = await signedOutPage();
      await signInWithAccount(page, member);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('not a club admin');
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect(await sessionCookie(page)).toBeUndefined();
      await page.close();
    });

    it('returns to sign-in when the admin loses the admin group', async () => {
      const page = await signedOutPage();
      await signInWithAccount(page, admin);
      await queueLoaded(page);
      expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toMatch(/[A-Za-z0-9]{32}/);
      await app.app.get(ClubAccountsService).setGroup(admin.uuid, 'default');
      try {
        await expectSentBackToSignIn(page);
      } finally {
        await app.app.get(ClubAccountsService).setGroup(admin.uuid, 'admin');
      }
      await page.close();
    });
  });

  describe('sessions that end on the server', () => {
    it('returns to sign-in when its API key is revoked', async () => {
      const name = 'console-to-revoke';
      const key = await app.createApiKey(['operator'], name);
      const page = await signedOutPage();
      await signInWithKey(page, key);
      await queueLoaded(page);
      await app.app.get(ApiKeysService).revoke(name);
      await expectSentBackToSignIn(page);
      await page.close();
    });

    it('returns to sign-in when the session has expired', async () => {
      const page = await signedOutPage();
      await signInWithKey(page, operatorKey);
      await queueLoaded(page);
      // Past its absolute end (the limits themselves are timed in test/console-sessions.e2e-spec.ts).
      await app.dataSource.query("UPDATE console_sessions SET expires_at = '2000-01-01 00:00:00.000'");
      await expectSentBackToSignIn(page);
      await page.reload();
      await page.getByLabel('API key').waitFor();
      await page.close();
    });
  });

  describe('account page', () => {
    let page: Page;

    beforeAll(async () => {
      page = await browser.page(375, 812);
    });

    afterAll(async () => {
      await page.close();
    });

    async function signInAtAccount(password: string): Promise<void> {
      await page.getByLabel('Game id or uuid').fill(member.mcid);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'My city requests' }).waitFor();
    }

    it("lets a player sign in, lists the player's own requests and withdraws a pending one", async () => {
      await page.goto(`${app.baseUrl}/account?lang=en`);
      await page.getByRole('heading', { name: 'Club account' }).waitFor();
      await signInAtAccount(PASSWORD);
      const own = page.locator('.my-requests li').filter({ hasText: names.conflicted }).filter({ hasText: 'Information change' });
      await own.waitFor();
      expect(await own.textContent()).toContain('pending');
      await expectNoSidewaysScroll(page);
      await screenshot(page, 'account-en-375');
      await own.getByRole('button', { name: 'Withdraw' }).click();
      await page.getByRole('status').filter({ hasText: 'Withdrawn.' }).waitFor();
      const rejected = (await app.get<{ data: Array<RequestBody & { type: string }> }>('/cities/requests', { ...operator(), query: { status: 'rejected', type: 'update' } })).body.data;
      expect(rejected.map((request) => request.rejectReason)).toContain('withdrawn');
      await page.getByRole('button', { name: '日本語' }).click();
      await page.setViewportSize({ width: 1440, height: 900 });
      await screenshot(page, 'account-ja-1440');
      await page.getByRole('button', { name: 'English' }).click();
    });

    it('changes the password: the new one signs in', async () => {
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByLabel('New password').fill('changed-password-2');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
      const signIn = await app.post('/club/token', { username: member.mcid, password: 'changed-password-2', recaptcha: 'x' });
      expect(signIn.status).toBe(200);
    });

    it('sets a new password with an in-game key after signing out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('In-game key').waitFor();
      const userkey = await app.issueUserKey(gameServerKey, member.uuid, member.mcid);
      await page.getByLabel('In-game key').fill(userkey);
      await page.getByLabel('New password').fill('reset-password-3');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByRole('heading', { name: 'My city requests' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
      // The new password is proven by the deletion below, which needs it (signing in here would supersede the page's token).
    });

    it('deletes the account after confirmation (with the password set by the key): it can no longer sign in', async () => {
      await page.getByLabel('Password', { exact: true }).fill('reset-password-3');
      expect(await page.getByRole('button', { name: 'Delete account' }).isDisabled()).toBe(true);
      await page.getByLabel('I understand: delete my account').check();
      await page.getByRole('button', { name: 'Delete account' }).click();
      await page.getByLabel('In-game key').waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect((await app.post('/club/token', { username: member.mcid, password: 'reset-password-3', recaptcha: 'x' })).status).toBe(401);
    });
  });

  it('loads every page without console errors, failed requests or CSP violations (favicon included)', async () => {
    browser.problems.length = 0;
    const page = await signedOutPage();
    await signInWithKey(page, operatorKey);
    await openRequest(page, names.region);
    await page.getByRole('button', { name: 'Cities' }).click();
    await page.getByRole('button', { name: new RegExp(names.neighbour) }).click();
    await page.getByRole('img', { name: new RegExp(names.neighbour) }).waitFor();
    // The city page's later reads (its history) finish first: a navigation would abort them, and
    // an aborted read is not a failure of the page.
    await page.waitForLoadState('networkidle');
    await page.goto(`${app.baseUrl}/account`);
    // The language chosen on /console is remembered on /account.
    await page.getByRole('heading', { name: 'Club account' }).waitFor();
    const favicon = await page.evaluate(async () => (await fetch('/console/favicon.svg')).status);
    expect(favicon).toBe(200);
    await page.close();
    expect(browser.problems).toEqual([]);
  });

  it("renders the map SVG in the browser (the picture in the docs)", async () => {
    const page = await browser.page(1000, 900);
    await page.goto(`${app.baseUrl}/maps/cities.svg?bbox=-150,-60,200,240`);
    // The picture in docs/console-and-maps.md (docs/map.png) is a copy of this one.
    await page.locator('svg').first().screenshot({ path: join(ARTIFACTS, 'map-svg.png') });
    expect(await page.locator('svg polygon').count()).toBeGreaterThan(0);
    await page.close();
  });
});
