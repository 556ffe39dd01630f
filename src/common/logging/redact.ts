/** Names whose values are secrets wherever they appear: query strings, bodies, headers. */
const SECRET_NAMES = ['password', 'usertoken', 'apikey', 'recaptcha', 'userkey', 'verificationcode', 'token', 'key', 'secret'];

const secretParam = new RegExp(`([?&](?:${SECRET_NAMES.join('|')})=)[^&#]*`, 'gi');

/** The URL with every secret query value replaced, e.g. GET /club/token?password=… */
export function redactUrl(url: string): string {
  return url.includes('?') ? url.replace(secretParam, '$1[redacted]') : url;
}

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'password',
  'usertoken',
  'apikey',
  'recaptcha',
  'userkey',
  'key',
];
