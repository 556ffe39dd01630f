import type { Page } from 'playwright-core';
import { ChatAccountsReader } from '../../src/chat-accounts/chat-accounts.reader';
import { ClubUser, registerClubUser, TestApp } from '../support/test-app';
import { screenshot, TestBrowser } from './browser';

declare const document: { documentElement: { scrollWidth: number } };

const PASSWORD = 'links-password-1';

/**
 * The account page's profile links (docs/game-server.md, "The chat bot…"): a signed-in player
 * sees the links the chat bot set, changes them, removes one by emptying it, and the players site's
 * reader serves what was saved; an invalid link shows the service's error.
 */
describe('account page: profile links (browser)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;
  let member: ClubUser;

  beforeAll(async () => {
    app = await TestApp.start({ RECAPTCHA_SECRET: '' });
    const gameServerKey = await app.createApiKey(['game-server']);
    const botKey = await app.createApiKey(['chat-bot']);
    member = await registerClubUser(app, gameServerKey, { password: PASSWORD });
    const fromBot = await app.post('/chat-bot/profile-links', { links: [{ id: 'bot-1', uuid: member.uuid, twitterId: 'from_the_bot' }] }, { headers: { 'x-api-key': botKey } });
    expect(fromBot.status).toBe(200);
    browser = await TestBrowser.launch();
    page = await browser.page(1440, 900);
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await app?.stop();
  });

  it('shows, saves and removes links', async () => {
    await page.goto(`${app.baseUrl}/account?lang=en`);
    await page.getByLabel('Game id or uuid').fill(member.mcid);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Profile links' }).waitFor();
    const twitter = page.getByLabel('Twitter id');
    // Loaded after the account: wait for the bot's value to arrive.
    await page.waitForFunction(() => (globalThis as unknown as { document: { getElementById(id: string): { value: string } | null } }).document.getElementById('link-twitter')?.value === 'from_the_bot');

    await page.getByLabel('GitHub login').fill('taro-gh');
    await page.getByLabel('Home page (http or https)').fill('https://taro.example/blog');
    await page.getByRole('button', { name: 'Save links' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile links saved.' }).waitFor();
    await expect(app.app.get(ChatAccountsReader).profileLinks(member.uuid)).resolves.toEqual({ twitterId: 'from_the_bot', githubId: 'taro-gh', homeUrl: 'https://taro.example/blog' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await screenshot(page, 'account-profile-links-en-1440');

    // Emptying a field removes the link; the page shows what the service stored after a reload.
    await twitter.fill('');
    await page.getByRole('button', { name: 'Save links' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile links saved.' }).waitFor();
    await expect(app.app.get(ChatAccountsReader).profileLinks(member.uuid)).resolves.toEqual({ twitterId: null, githubId: 'taro-gh', homeUrl: 'https://taro.example/blog' });
    await page.reload();
    await page.getByRole('heading', { name: 'Profile links' }).waitFor();
    await page.waitForFunction(() => (globalThis as unknown as { document: { getElementById(id: string): { value: string } | null } }).document.getElementById('link-github')?.value === 'taro-gh');
    await expect(page.getByLabel('Twitter id').inputValue()).resolves.toBe('');

    // In Japanese, at phone width: a login the form's own check lets through (letters, digits, hyphens)
    // but the service refuses (a hyphen at an end) shows the service's Japanese error.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: '日本語' }).click();
    await page.getByRole('heading', { name: 'プロフィールリンク' }).waitFor();
    await page.getByLabel('GitHub ユーザー名').fill('-bad-');
    await page.getByRole('button', { name: 'リンクを保存' }).click();
    await page.getByRole('alert').filter({ hasText: 'GitHub' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'account-profile-links-ja-375');
    await expect(app.app.get(ChatAccountsReader).profileLinks(member.uuid)).resolves.toMatchObject({ githubId: 'taro-gh' });
    expect(browser.problems.filter((problem) => !problem.includes('400'))).toEqual([]);
  }, 120_000);
});
