/**
 * The console's Content-Security-Policy and CAPTCHA widget settings. Pure, no framework imports.
 *
 * The CAPTCHA provider is the one whose verify URL the service uses (RECAPTCHA_VERIFY_URL):
 * Google reCAPTCHA by default, hCaptcha or Cloudflare Turnstile when the URL points there (they
 * speak the same siteverify protocol). The page may load exactly that provider's script and frames.
 */

export type CaptchaProviderName = 'recaptcha' | 'hcaptcha' | 'turnstile';

export interface CaptchaProvider {
  name: CaptchaProviderName;
  /** The widget script, loaded for explicit rendering. */
  script: string;
  /** The global the script defines (`render(element, {sitekey, callback})`). */
  global: 'grecaptcha' | 'hcaptcha' | 'turnstile';
  scriptOrigins: string[];
  frameOrigins: string[];
}

const PROVIDERS: Record<CaptchaProviderName, CaptchaProvider> = {
  recaptcha: {
    name: 'recaptcha',
    script: 'https://www.google.com/recaptcha/api.js?render=explicit',
    global: 'grecaptcha',
    scriptOrigins: ['https://www.google.com', 'https://www.gstatic.com'],
    frameOrigins: ['https://www.google.com'],
  },
  hcaptcha: {
    name: 'hcaptcha',
    script: 'https://js.hcaptcha.com/1/api.js?render=explicit',
    global: 'hcaptcha',
    scriptOrigins: ['https://js.hcaptcha.com', 'https://hcaptcha.com', 'https://*.hcaptcha.com'],
    frameOrigins: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
  turnstile: {
    name: 'turnstile',
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    global: 'turnstile',
    scriptOrigins: ['https://challenges.cloudflare.com'],
    frameOrigins: ['https://challenges.cloudflare.com'],
  },
};

export function captchaProviderFor(verifyUrl: string): CaptchaProvider {
  let host: string;
  try {
    host = new URL(verifyUrl).hostname;
  } catch {
    host = '';
  }
  if (host === 'hcaptcha.com' || host.endsWith('.hcaptcha.com')) {
    return PROVIDERS.hcaptcha;
  }
  if (host === 'challenges.cloudflare.com') {
    return PROVIDERS.turnstile;
  }
  return PROVIDERS.recaptcha;
}

/** Scripts and styles from the page's own origin only; the CAPTCHA's script and frame origins only when a site key is set. */
export function consoleCsp(captcha: CaptchaProvider | undefined): string {
  const scripts = ["'self'", ...(captcha?.scriptOrigins ?? [])];
  const frames = captcha ? captcha.frameOrigins : ["'none'"];
  return [
    "default-src 'none'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${frames.join(' ')}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What the page needs to know (served as /console/config.json). */
export interface ConsoleSettings {
  captcha: { provider: CaptchaProviderName; script: string; global: CaptchaProvider['global']; siteKey: string } | null;
  /**
   * Whether game id + password sign-in can work: it needs a CAPTCHA answer when verification is
   * on (RECAPTCHA_SECRET set), which the page can only give with a site key.
   */
  passwordSignIn: boolean;
}

export function consoleSettings(config: { RECAPTCHA_SITE_KEY?: string; RECAPTCHA_SECRET?: string; RECAPTCHA_VERIFY_URL: string }): ConsoleSettings {
  const provider = config.RECAPTCHA_SITE_KEY ? captchaProviderFor(config.RECAPTCHA_VERIFY_URL) : undefined;
  return {
    captcha:
      provider && config.RECAPTCHA_SITE_KEY
        ? { provider: provider.name, script: provider.script, global: provider.global, siteKey: config.RECAPTCHA_SITE_KEY }
        : null,
    passwordSignIn: Boolean(config.RECAPTCHA_SITE_KEY) || !config.RECAPTCHA_SECRET,
  };
}

/** `/console`, `/console/...` and `/account` (after the `/v1` prefix is stripped). */
export function isConsolePath(url: string | undefined): boolean {
  if (url === undefined) {
    return false;
  }
  const path = url.split('?')[0];
  return path === '/console' || path.startsWith('/console/') || path === '/account' || path === '/account/';
}
