/** Names whose values are secrets wherever they appear: query strings, bodies, headers. */
const SECRET_NAMES = ['password', 'usertoken', 'apikey', 'recaptcha', 'userkey', 'verificationcode', 'token', 'key', 'secret'];

const secretNames = new Set(SECRET_NAMES);

/** A query parameter's name as the server reads it: percent- and plus-decoded, brackets dropped, lower case. */
function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: compare the raw text (minus any valid escapes we could not read).
  }
  return name.replace(/\[.*$/, '').trim().toLowerCase();
}

/**
 * The URL with every secret query value replaced, e.g. GET /club/token?password=… Names are
 * compared decoded, so `pass%77ord=` and `PASSWORD[]=` are caught too.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) {
    return url;
  }
  const hash = url.indexOf('#', start);
  const end = hash === -1 ? url.length : hash;
  const pairs = url
    .slice(start + 1, end)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return secretNames.has(decodedName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start + 1)}${pairs.join('&')}${url.slice(end)}`;
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
