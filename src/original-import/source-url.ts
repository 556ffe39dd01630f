/**
 * The source database's address and password: read from `--from` and the password options, and
 * kept out of every message. Pure functions, no framework imports.
 */

/** The source cannot be used (unreachable, refused, not the original layout): exit status 2, nothing written. */
export class SourceError extends Error {}

/** Where the original database is and who reads it; the password never appears in `where`. */
export interface SourceAddress {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** `host:port/database`, for messages. */
  where: string;
}

/**
 * `mysql://USER[:PASS]@HOST[:PORT]/DATABASE`, read by hand rather than with `URL`: an operator's
 * password may hold an unencoded `/`, `@`, `#`, `?` or `:`, which a URL parser would take for the
 * path, the host or the fragment and then print back in its error. The user name ends at the first
 * `:`, the password at the last `@`; percent-encoded parts are decoded. The password given
 * separately (`ORIGINAL_DB_PASSWORD`, `--password-file`) replaces the URL's.
 */
export function parseSourceUrl(url: string, password?: string): SourceAddress {
  const scheme = /^(mysql|mariadb):\/\//i.exec(url);
  if (!scheme) {
    throw new SourceError('--from must be a mysql:// URL (mysql://USER@HOST:PORT/DATABASE).');
  }
  const rest = url.slice(scheme[0].length);
  const at = rest.lastIndexOf('@');
  const userinfo = at < 0 ? '' : rest.slice(0, at);
  const location = at < 0 ? rest : rest.slice(at + 1);
  const colon = userinfo.indexOf(':');
  const slash = location.indexOf('/');
  const hostPort = slash < 0 ? location : location.slice(0, slash);
  const database = decodePart(slash < 0 ? '' : location.slice(slash + 1).replace(/[?#].*$/, ''));
  const portMatch = /^(.*?)(?::(\d{1,5}))?$/.exec(hostPort);
  const host = (portMatch?.[1] ?? '').replace(/^\[(.*)\]$/, '$1');
  const port = Number(portMatch?.[2] ?? 3306);
  if (!host || !/^[A-Za-z0-9._:-]+$/.test(host) || port < 1 || port > 65535) {
    throw new SourceError('--from names no host that can be reached: give mysql://USER@HOST:PORT/DATABASE (a password with special characters belongs in ORIGINAL_DB_PASSWORD or --password-file).');
  }
  if (!database) {
    throw new SourceError('--from names no database: add it at the end (mysql://USER@HOST:PORT/DATABASE).');
  }
  return {
    host,
    port,
    user: decodePart(colon < 0 ? userinfo : userinfo.slice(0, colon)),
    password: password ?? decodePart(colon < 0 ? '' : userinfo.slice(colon + 1)),
    database,
    where: `${host}:${port}/${database}`,
  };
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Every spelling of a secret that could reach a message: as given, decoded, encoded. Output is
 * scrubbed of all of them (docs/moving-from-original.md, "The source password").
 */
export function secretSpellings(url: string, password: string | undefined): string[] {
  const spellings = new Set<string>();
  const add = (value: string | undefined): void => {
    if (value && value.length >= 1) {
      spellings.add(value);
      spellings.add(decodePart(value));
      spellings.add(encodeURIComponent(decodePart(value)));
    }
  };
  add(password);
  const scheme = /^(mysql|mariadb):\/\//i.exec(url);
  const rest = scheme ? url.slice(scheme[0].length) : url;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const userinfo = rest.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon >= 0) {
      add(userinfo.slice(colon + 1));
    }
  }
  // Longest first, so a secret that contains another is removed whole.
  return [...spellings].filter((value) => value.length > 0).sort((a, b) => b.length - a.length);
}

/** `text` with every spelling of the secrets replaced by `***`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    result = result.split(secret).join('***');
  }
  return result;
}
