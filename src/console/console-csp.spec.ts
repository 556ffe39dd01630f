import { captchaProviderFor, consoleCsp, consoleSettings, isConsolePath } from './console-csp';

describe('console CSP', () => {
  it('allows only its own scripts and styles without a CAPTCHA', () => {
    const policy = consoleCsp(undefined);
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self';");
    expect(policy).toContain("frame-src 'none';");
    expect(policy).not.toMatch(/unsafe/);
  });

  it.each([
    ['https://www.google.com/recaptcha/api/siteverify', 'recaptcha', "script-src 'self' https://www.google.com https://www.gstatic.com;", 'frame-src https://www.google.com;'],
    ['https://api.hcaptcha.com/siteverify', 'hcaptcha', "script-src 'self' https://js.hcaptcha.com https://hcaptcha.com https://*.hcaptcha.com;", 'frame-src https://hcaptcha.com https://*.hcaptcha.com;'],
    ['https://challenges.cloudflare.com/turnstile/v0/siteverify', 'turnstile', "script-src 'self' https://challenges.cloudflare.com;", 'frame-src https://challenges.cloudflare.com;'],
  ])('adds exactly the provider of %s (%s)', (url, name, scripts, frames) => {
    const provider = captchaProviderFor(url);
    expect(provider.name).toBe(name);
    const policy = consoleCsp(provider);
    expect(policy).toContain(scripts);
    expect(policy).toContain(frames);
  });

  it('offers password sign-in only when a CAPTCHA answer can be given or is not checked', () => {
    const base = { RECAPTCHA_VERIFY_URL: 'https://www.google.com/recaptcha/api/siteverify' };
    expect(consoleSettings({ ...base, RECAPTCHA_SECRET: 's' }).passwordSignIn).toBe(false);
    expect(consoleSettings({ ...base }).passwordSignIn).toBe(true);
    expect(consoleSettings({ ...base, RECAPTCHA_SECRET: 's', RECAPTCHA_SITE_KEY: 'k' })).toMatchObject({ passwordSignIn: true, captcha: { siteKey: 'k' } });
  });

  it('knows the console paths', () => {
    expect(['/console', '/console/', '/console/assets/a.js', '/account', '/console?lang=en'].every(isConsolePath)).toBe(true);
    expect(['/consoles', '/accounts', '/cities', '/v1/console'].some(isConsolePath)).toBe(false);
  });
});
