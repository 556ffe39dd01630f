import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { newPlayer, TestApp } from '../support/test-app';
import { screenshot, TestBrowser } from './browser';

// The page's globals, as the functions passed to page.evaluate() see them (the test's own tsconfig has no DOM lib).
declare const document: { querySelectorAll(selector: string): { length: number } };

const PAGE = readFileSync(join(__dirname, 'players-site-page.html'));

/** Serves the player page on an origin of its own (another port of loopback), as the players site is. */
async function serveSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    response.writeHead(request.url?.startsWith('/player') ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(request.url?.startsWith('/player') ? PAGE : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A page built like the community's players site (docs/players-site.md), on another origin: it
 * fires a player page's reads at once through CORS, with a token parameter on each as the site
 * does, and renders them. Checks what a visitor sees, in Debian's Chromium.
 */
describe('players site page (browser)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let site: { origin: string; server: Server };
  const player = newPlayer();

  beforeAll(async () => {
    site = await serveSite();
    app = await TestApp.start({ CORS_ORIGINS: site.origin, RATE_LIMIT_ENABLED: 'true' });
    const key = await app.createApiKey(['game-server']);
    const bot = await app.createApiKey(['chat-bot']);
    const post = async (path: string, body: unknown, apiKey = key, method = 'POST'): Promise<void> => {
      const result = await app.request(method, path, { body, headers: { 'x-api-key': apiKey } });
      if (result.status !== 200) {
        throw new Error(`${path}: ${result.status} ${result.text}`);
      }
    };
    const chatid = '123456789012345678';
    const day = (offset: number): Date => new Date(Date.now() - offset * 86_400_000);
    await post('/game-server/logins', { logins: [{ ...player, loggedInAt: '2019-04-01T01:00:00Z' }, { ...player, loggedInAt: day(1).toISOString() }] });
    await post(`/game-server/chat-links/${player.uuid}`, { chatid }, key, 'PUT');
    await post('/game-server/sessions', {
      sessions: Array.from({ length: 40 }, (_, index) => ({ id: `s${index}`, uuid: player.uuid, mcid: player.mcid, startedAt: day(3 + index * 5).toISOString(), endedAt: new Date(day(3 + index * 5).getTime() + 3_600_000 * (1 + (index % 3))).toISOString() })),
    });
    await post('/game-server/away-time', { away: [{ id: 'a1', uuid: player.uuid, mcid: player.mcid, seconds: 1800, at: day(2).toISOString() }] });
    await post('/game-server/votes', { votes: Array.from({ length: 24 }, (_, index) => ({ id: `v${index}`, uuid: player.uuid, site: 'minecraft.jp', votedAt: day(10 + index).toISOString() })) });
    await post('/game-server/group-changes', { groupChanges: [{ id: 'g1', uuid: player.uuid, group: 'Verified', at: day(5).toISOString() }] });
    await post('/game-server/punishments', { punishments: [{ id: 'j1', kind: 'jail', uuid: player.uuid, mcid: player.mcid, reason: '<b>荒らし</b>', testment: 'ごめんなさい', issuedBy: 'Moderator1', issuedAt: '2024-05-01T00:00:00Z' }] });
    await post('/game-server/punishments/lifts', { lifts: [{ kind: 'jail', id: 'j1', liftedAt: '2024-05-02T00:00:00Z' }] });
    await post('/game-server/achievements', { achievements: [{ id: 1, title: 'はじめの一歩', description: 'ログインする' }, { id: 2, title: '市長', description: '自治体をつくる' }] }, key, 'PUT');
    await post('/game-server/achievements/unlocks', { unlocks: [{ uuid: player.uuid, achievementId: 1, unlockedAt: '2019-04-01T01:00:00Z' }] });
    await post('/game-server/mini-games/periodmatch', {
      results: [{ id: 'pm1', uuid: player.uuid, mcid: player.mcid, success: 8, failure: 1, matchTime: 30, realMatchTime: 31, calcMatchTime: 30100, startTime: '2024-06-01T00:00:00Z', endTime: '2024-06-01T00:00:31Z' }],
    });
    await post('/chat-bot/accounts', { accounts: [{ id: 'c1', chatid, name: 'walker', discriminator: '0', reportedAt: day(1).toISOString() }] }, bot);
    await post('/chat-bot/profile-links', { links: [{ id: 'l1', uuid: player.uuid, githubId: 'octocat', homeUrl: 'https://walk.example/' }] }, bot);
    browser = await TestBrowser.launch();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => site.server.close(resolve));
  });

  it.each([
    [1440, 'players-site-desktop'],
    [375, 'players-site-phone'],
  ])('at %i px: the page loads whole from another origin and shows every part', async (width, name) => {
    const page = await browser.page(width, 900);
    const api: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(app.baseUrl)) {
        api.push(request.url());
      }
    });
    await page.goto(`${site.origin}/player?api=${encodeURIComponent(app.baseUrl)}&id=${player.mcid}`);
    await page.waitForSelector('body[data-loaded]');
    expect(await page.getAttribute('body', 'data-loaded')).toBe('yes');
    expect(api).toHaveLength(10);
    expect(await page.textContent('#name')).toBe(player.mcid);
    const profile = await page.textContent('#profile');
    expect(profile).toContain('the New Generation VIP');
    expect(profile).toContain('2019-04-01 10:00:00');
    expect(profile).toContain('verified');
    expect(profile).toContain('octocat');
    expect(await page.textContent('#playtime')).toMatch(/jao4\s*3日\d+時間0分0秒/);
    expect(await page.textContent('#playtime')).toContain('30分0秒');
    expect(await page.textContent('#days')).toMatch(/^\d+ 日$/);
    expect(await page.evaluate(() => document.querySelectorAll('#heatmap span').length)).toBeGreaterThan(30);
    expect(await page.textContent('#votes')).toContain('24 票（1 位）');
    expect(await page.textContent('#discord')).toContain('walker#0');
    expect(await page.textContent('#punishment-counts')).toBe('Jail 1 / ChatJail 0 / EBan 0 / VBan 0');
    // The reason is text, escaped by the page; the API sent it as stored.
    expect(await page.textContent('#punishments')).toContain('<b>荒らし</b>');
    expect(await page.textContent('#achievements')).toBe('1 / 2: はじめの一歩');
    expect(await page.textContent('#mcbans')).toBe('クリーン');
    expect(await page.textContent('#periodmatch')).toContain('1 位');
    await screenshot(page, name);
    await page.close();
  });

  it('an unknown player: the site shows the API\'s error text, inserted as HTML, and nothing runs from the address', async () => {
    const page = await browser.page(1440, 600);
    await page.goto(`${site.origin}/player?api=${encodeURIComponent(app.baseUrl)}&id=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    await page.waitForSelector('body[data-loaded]');
    expect(await page.getAttribute('body', 'data-loaded')).toBe('error');
    expect(await page.textContent('#error')).toBe('User not found.');
    expect(await page.evaluate(() => document.querySelectorAll('#error *').length)).toBe(0);
    await screenshot(page, 'players-site-not-found');
    await page.close();
  });
});
