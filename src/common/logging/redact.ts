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

/** `;` as written or percent-encoded (`%3B`). */
const SEMICOLON = /;|%3b/i;

/**
 * A path's matrix parameters (`/club/token;password=…`, `/cities/requests;apikey=csk_…`): in each
 * segment, everything from the first `;` on becomes `;[redacted]`. The service reads no matrix
 * parameter, so whatever stands there is no use to an operator and may be a secret under any
 * name, or under none (`;csk_…`): it is dropped whole rather than judged by name.
 */
function redactPath(path: string): string {
  if (!SEMICOLON.test(path)) {
    return path;
  }
  return path
    .split('/')
    .map((segment) => {
      const at = segment.search(SEMICOLON);
      return at === -1 ? segment : `${segment.slice(0, at)};[redacted]`;
    })
    .join('/');
}

/**
 * A query string with every secret value replaced. Pairs are split at `&` and also at `;`
 * (`?a=1;password=…`), which some clients and parsers take as a separator too.
 */
function redactQuery(query: string): string {
  return query
    .split(/([&;])/)
    .map((pair, index) => {
      if (index % 2 === 1) {
        return pair; // a separator
      }
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return secretNames.has(decodedName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('');
}

/**
 * The URL with every secret replaced, e.g. GET /club/token?password=[redacted]. Query names are
 * compared decoded, so `pass%77ord=` and `PASSWORD[]=` are caught too; matrix parameters in the
 * path (after `;`) are redacted whatever their name.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  const hash = url.indexOf('#');
  const pathEnd = Math.min(query === -1 ? url.length : query, hash === -1 ? url.length : hash);
  const path = redactPath(url.slice(0, pathEnd));
  if (query === -1) {
    return `${path}${url.slice(pathEnd)}`;
  }
  // From the first `?` on, even behind a `#` (a raw client may send one): never less redaction.
  const hashAfter = url.indexOf('#', query);
  const end = hashAfter === -1 ? url.length : hashAfter;
  return `${path}${url.slice(pathEnd, query)}?${redactQuery(url.slice(query + 1, end))}${url.slice(end)}`;
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
