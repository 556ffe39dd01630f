import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_DIST } from '../src/console/console-site';
import { expectError, TestApp } from './support/test-app';

/**
 * The console's files as the service serves them (docs/console-and-maps.md): the page at /console and
 * /account, its own CSP, no /v1 alias, and the settings it reads. Needs `npm run build` (the
 * console is built with the service).
 */
describe('console pages (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`The console is not built (${CONSOLE_DIST}): run npm run build first.`);
    }
    app = await TestApp.start();
  });

  afterAll(async () => {
    await app.stop();
  });

  function csp(result: { headers: Headers }): Record<string, string> {
    const header = result.headers.get('content-security-policy') ?? '';
    return Object.fromEntries(
      header
        .split(';')
        .map((directive) => directive.trim())
        .filter(Boolean)
        .map((directive) => {
          const [name, ...values] = directive.split(/\s+/);
          return [name, values.join(' ')];
        }),
    );
  }

  it.each(['/console', '/console/', '/account'])('serves the page at %s as HTML with its own strict CSP', async (path) => {
    const result = await app.get(path);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^text\/html/);
    expect(result.text).toContain('<div id="app"></div>');
    expect(result.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(result.text).not.toMatch(/\sstyle=/);
    const policy = csp(result);
    expect(policy).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'connect-src': "'self'",
      'frame-src': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(JSON.stringify(policy)).not.toMatch(/unsafe-inline|unsafe-eval|google|gstatic/);
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves its scripts and styles from /console/assets, cacheable for good, and the favicon', async () => {
    const page = await app.get('/console');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/console\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true);
    expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const result = await app.get(asset);
      expect(result.status).toBe(200);
      if (asset.includes('/assets/')) {
        expect(result.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      }
    }
    const favicon = await app.get('/console/favicon.svg');
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('keeps the API CSP for the API', async () => {
    expect(csp(await app.get('/cities'))['default-src']).toBe("'none'");
    expect(csp(await app.get('/cities'))['script-src']).toBeUndefined();
  });

  it('answers unknown console files and /v1/console with the 404 envelope', async () => {
    expectError(await app.get('/console/nope.js'), 404, 'not_found');
    expectError(await app.get('/v1/console'), 404, 'not_found');
    expectError(await app.get('/v1/account'), 404, 'not_found');
    expectError(await app.get('/v1/console/config.json'), 404, 'not_found');
  });

  it('tells the page there is no CAPTCHA widget and, with verification on, no password sign-in', async () => {
    const result = await app.get('/console/config.json');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ captcha: null, passwordSignIn: false });
  });

  describe('with RECAPTCHA_SITE_KEY', () => {
    let withKey: TestApp;

    beforeAll(async () => {
      withKey = await TestApp.start({ RECAPTCHA_SITE_KEY: 'site-key-123' });
    });

    afterAll(async () => {
      await withKey.stop();
    });

    it("allows exactly reCAPTCHA's script and frame origins, and hands the page the site key", async () => {
      const policy = csp(await withKey.get('/console'));
      expect(policy['script-src']).toBe("'self' https://www.google.com https://www.gstatic.com");
      expect(policy['frame-src']).toBe('https://www.google.com');
      expect(policy['style-src']).toBe("'self'");
      const settings = await withKey.get('/console/config.json');
      expect(settings.body).toEqual({
        captcha: { provider: 'recaptcha', script: 'https://www.google.com/recaptcha/api.js?render=explicit', global: 'grecaptcha', siteKey: 'site-key-123' },
        passwordSignIn: true,
      });
    });
  });

  it('offers password sign-in when verification is off (no RECAPTCHA_SECRET)', async () => {
    const open = await TestApp.start({ RECAPTCHA_SECRET: '' });
    try {
      expect((await open.get('/console/config.json')).body).toEqual({ captcha: null, passwordSignIn: true });
    } finally {
      await open.stop();
    }
  });
});
