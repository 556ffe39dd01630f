/**
 * Characters no text of the service may carry (SECURITY.md, untrusted text): lone surrogates
 * (half of a UTF-16 pair: SQLite stores them as invalid UTF-8, MariaDB as U+FFFD, so what is read
 * back is not what was sent) and the 66 Unicode noncharacters (U+FDD0–U+FDEF and the last two code
 * points of every plane, U+FFFE and U+FFFF among them, which XML forbids and break the public map).
 * Pure: no framework imports.
 */
const FORBIDDEN = /[\p{Cs}\p{Noncharacter_Code_Point}]/u;

/** Whether a string carries a character of `FORBIDDEN`. */
export function hasForbiddenCharacter(text: string): boolean {
  return FORBIDDEN.test(text);
}

/**
 * The first parameter (dotted path, `achievements.0.title`) whose text carries a forbidden
 * character, looking through arrays and objects; undefined when there is none. Depth is bounded
 * by the JSON depth limit the body parser applies first.
 */
export function findForbiddenText(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') {
    return hasForbiddenCharacter(value) ? path : undefined;
  }
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) {
    return undefined;
  }
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const found = findForbiddenText(item, path ? `${path}.${key}` : key);
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}
