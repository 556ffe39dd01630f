import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ARTIFACTS = join(__dirname, '..', 'artifacts');

/**
 * Debian's Chromium, headless, with a fresh profile and nothing reaching the network but
 * loopback (no updates, sync or field trials). Nothing is downloaded at run time.
 */
export class TestBrowser {
  private constructor(
    private readonly browser: BrowserContext,
    private readonly profile: string,
  ) {}

  /** Console errors, page errors and failed requests of every page, for the "no errors" checks. */
  readonly problems: string[] = [];

  static async launch(): Promise<TestBrowser> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
      viewport: { width: 1440, height: 900 },
    });
    return new TestBrowser(context, profile);
  }

  /** A new tab of the given width; its console errors and failed requests are collected. */
  async page(width = 1440, height = 900): Promise<Page> {
    const page = await this.browser.newPage();
    await page.setViewportSize({ width, height });
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        this.problems.push(`console ${message.type()}: ${message.text()} (${page.url()})`);
      }
    });
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => this.problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
    return page;
  }

  async close(): Promise<void> {
    await this.browser.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
