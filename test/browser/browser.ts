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

/**
 * Every map on the page, checked with the boxes the browser draws: no two texts (axis ticks,
 * captions, outline names, corner labels) overlap, none reaches outside its picture (names and
 * corners: outside the drawing, where they would be clipped), and no picture is wider than its
 * frame. Returns what is wrong, in words; `[]` when all is clear. Also how many texts were seen.
 */
export async function mapLabelProblems(page: Page): Promise<{ problems: string[]; texts: number; maps: number }> {
  // A string, run in the page: the test's TypeScript has no DOM types.
  return page.evaluate(`(() => {
    const problems = [];
    let count = 0;
    const maps = [...document.querySelectorAll('.map > svg')];
    const inside = (r, box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
    for (const svg of maps) {
      const outer = svg.getBoundingClientRect();
      const frame = svg.parentElement.getBoundingClientRect();
      if (outer.right > frame.right + 0.5 || outer.left < frame.left - 0.5) {
        problems.push('a map is wider than its frame');
      }
      const drawing = svg.querySelector('svg.map').getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')].map((element) => ({ text: element.textContent, box: element.getBoundingClientRect(), inner: element.closest('svg.map') !== null }));
      count += texts.length;
      for (const text of texts) {
        if (!inside(text.box, outer)) {
          problems.push('"' + text.text + '" leaves the picture');
        } else if (text.inner && !inside(text.box, drawing)) {
          problems.push('"' + text.text + '" is clipped by the drawing');
        }
      }
      texts.forEach((a, i) => {
        for (const b of texts.slice(i + 1)) {
          const overlap = a.box.left < b.box.right - 0.5 && b.box.left < a.box.right - 0.5 && a.box.top < b.box.bottom - 0.5 && b.box.top < a.box.bottom - 0.5;
          if (overlap) {
            problems.push('"' + a.text + '" overlaps "' + b.text + '"');
          }
        }
      });
    }
    return { problems, texts: count, maps: maps.length };
  })()`);
}
