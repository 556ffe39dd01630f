import { hash, timingSafeEqual } from 'node:crypto';
import { randomString } from '../common/secrets';

/**
 * The console's cookie (docs/console-and-maps.md, Signing in to the console). Over HTTPS it takes
 * the `__Host-` prefix, which browsers accept only with `Secure`, `Path=/` and no `Domain`, so no
 * other site under the same domain can plant or shadow it. `Path=/`: the console calls the API's
 * own routes (/cities, /users/banlist), so no narrower path reaches them; the server accepts the
 * cookie only on the routes the console calls.
 */
export const COOKIE_NAME = 'console_session';
export const SECURE_COOKIE_NAME = `__Host-${COOKIE_NAME}`;

/** The request header carrying the session's CSRF token on every state-changing call. */
export const CSRF_HEADER = 'x-csrf-token';

/** 43 characters of 62: about 256 bits, so a fast hash is enough to store it (as for API keys). */
export const newSessionSecret = (): string => `ccs_${randomString(43)}`;

const SECRET_PATTERN = /^ccs_[A-Za-z0-9]{43}$/;

export function isSessionSecret(value: string | undefined): value is string {
  return value !== undefined && SECRET_PATTERN.test(value);
}

/**
 * The session's CSRF token, derived from the cookie rather than stored: the server recomputes it
 * on each request, and a page that reloads asks for it again (a cross-site page cannot: the
 * cookie is SameSite=Strict and the answer carries no CORS permission). Not the stored hash, so
 * the database alone does not give it away.
 */
export function csrfTokenOf(secret: string): string {
  return hash('sha256', `console-csrf:${secret}`, 'hex');
}

/** Constant time: the comparison does not tell how many leading characters were right. */
export function csrfMatches(secret: string, presented: string | undefined): boolean {
  if (typeof presented !== 'string') {
    return false;
  }
  const expected = Buffer.from(csrfTokenOf(secret));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The session cookie of a `Cookie` header (either name; the secure one first). */
export function sessionCookieOf(header: string | undefined): string | undefined {
  if (!header) {
    return undefined;
  }
  const found = new Map<string, string>();
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals > 0) {
      const name = part.slice(0, equals).trim();
      if ((name === SECURE_COOKIE_NAME || name === COOKIE_NAME) && !found.has(name)) {
        found.set(name, part.slice(equals + 1).trim());
      }
    }
  }
  return found.get(SECURE_COOKIE_NAME) ?? found.get(COOKIE_NAME);
}

/** `Set-Cookie` for a new session (`maxAgeSeconds` > 0) or one that ends (0). */
export function sessionCookieHeader(value: string, secure: boolean, maxAgeSeconds: number): string {
  const name = secure ? SECURE_COOKIE_NAME : COOKIE_NAME;
  const parts = [`${name}=${value}`, 'Path=/', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) {
    parts.push('Secure');
  }
  return parts.join('; ');
}

/**
 * Whether an `Origin` header (when the browser sent one) names this server's host. Browsers send it
 * on every cross-origin request and on same-origin POST/PUT/DELETE; SameSite=Strict already keeps
 * the cookie off cross-site requests, and this also refuses a same-site page on another host. The
 * scheme is not compared: behind a TLS proxy that TRUST_PROXY does not list, the server sees http
 * while the page is https, and the console would refuse every change for a wrong setting.
 */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) {
    return true;
  }
  if (host === undefined) {
    return false;
  }
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.host === new URL(`http://${host}`).host;
  } catch {
    return false;
  }
}
