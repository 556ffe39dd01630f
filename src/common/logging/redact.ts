/**
 * Every name under which the API reads a secret, as it spells them: the club's passwords
 * (`newPassword` included), tokens and keys, and the CAPTCHA tokens (`recaptcha`, and
 * `user_recaptcha` as the players site sends it). Compared without regard to case, so the
 * list is kept lower-cased; SECURITY.md (Logging) lists them.
 */
export const SECRET_PARAMETER_NAMES = [
  'password',
  'newpassword',
  'usertoken',
  'apikey',
  'recaptcha',
  'user_recaptcha',
  'userkey',
  'verificationcode',
  'token',
  'key',
  'secret',
] as const;

/** Request headers that carry a secret: credentials, the session cookie, the bans site's CAPTCHA token. */
export const SECRET_HEADER_NAMES = ['authorization', 'x-api-key', 'cookie', 'set-cookie', 'x-recaptcha-token', 'proxy-authorization'] as const;

const secretNames = new Set<string>([...SECRET_PARAMETER_NAMES, ...SECRET_HEADER_NAMES]);

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

/** Where a query splits into pairs: `&` and `;`, written or percent-encoded (`%26`, `%3B`). */
const PAIR_SEPARATOR = /(&|;|%26|%3b)/i;
/** Where a pair's name ends: `=`, written or percent-encoded (`%3D`). */
const EQUALS = /=|%3d/i;

/**
 * A query string with every secret value replaced. Pairs are split at `&` and also at `;`
 * (`?a=1;password=…`), which some clients and parsers take as a separator too, and at their
 * percent-encoded forms: the server reads `?a=1%26password=x` as one value of `a`, but the
 * secret in it is still a secret, so the log errs on the side of hiding it. A name is compared
 * decoded and in any case; every occurrence of a repeated name is redacted.
 */
function redactQuery(query: string): string {
  return query
    .split(PAIR_SEPARATOR)
    .map((pair, index) => {
      if (index % 2 === 1) {
        return pair; // a separator
      }
      const equals = pair.search(EQUALS);
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return secretNames.has(decodedName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('');
}

/**
 * A `?` written `%3F` leaves the query in the path (`/club/token%3Fpassword=…` is a 404 for a
 * path segment the server never reads as parameters): what follows it is redacted as a query.
 */
function redactEncodedQuery(path: string): string {
  const at = path.search(/%3f/i);
  return at === -1 ? path : `${path.slice(0, at + 3)}${redactQuery(path.slice(at + 3))}`;
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
  const path = redactEncodedQuery(redactPath(url.slice(0, pathEnd)));
  if (query === -1) {
    return `${path}${url.slice(pathEnd)}`;
  }
  // From the first `?` on, even behind a `#` (a raw client may send one): never less redaction.
  const hashAfter = url.indexOf('#', query);
  const end = hashAfter === -1 ? url.length : hashAfter;
  return `${path}${url.slice(pathEnd, query)}?${redactQuery(url.slice(query + 1, end))}${url.slice(end)}`;
}

/** The spellings a secret parameter has in a body or a parsed query (the keys are case-sensitive there). */
const SECRET_KEYS = ['password', 'newPassword', 'usertoken', 'apikey', 'recaptcha', 'user_recaptcha', 'userkey', 'verificationCode', 'token', 'key', 'secret'];

/**
 * What pino blanks in any log line: secret headers wherever a request's headers are logged, and
 * secret parameters at the top of a line or in a logged body, query or params. The request line
 * itself carries only the method, the redacted URL, the status and the time.
 */
export const REDACTED_PATHS = [
  ...['req.headers', 'request.headers', 'headers', 'res.headers', 'reply.headers'].flatMap((holder) => SECRET_HEADER_NAMES.map((header) => `${holder}["${header}"]`)),
  ...SECRET_KEYS.flatMap((key) => [key, ...['body', 'query', 'params', 'req.body', 'req.query', 'req.params'].map((holder) => `${holder}.${key}`)]),
];
