/**
 * The moderation list's cursor (docs/api.md, Moderation). The list merges two sources, the
 * punishments and the community's ban-list records, newest first; its order is (issuedAt, source,
 * id), all descending, so the cursor is the key of the last item shown, opaque to clients. Pure.
 */

/** Each source's place among records issued at the same millisecond. */
export const SOURCE_RANK = { punishments: 1, communityBans: 0 } as const;
export type SourceRank = (typeof SOURCE_RANK)[keyof typeof SOURCE_RANK];

export interface RecordKey {
  at: Date;
  rank: SourceRank;
  id: number;
}

/** What one source reads after the cursor: issued before `at`, or at `at` with an id below `idBelow`. */
export interface SourceBound {
  at: Date;
  idBelow: number;
}

export function encodeCursor(key: RecordKey): string {
  return Buffer.from(`${key.at.getTime()}.${key.rank}.${key.id}`, 'utf8').toString('base64url');
}

/** The key, or undefined when the text is not a cursor this service wrote. */
export function decodeCursor(cursor: string): RecordKey | undefined {
  const match = /^(\d{1,15})\.([01])\.([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || !Number.isSafeInteger(Number(match[3]))) {
    return undefined;
  }
  return { at: new Date(Number(match[1])), rank: Number(match[2]) as SourceRank, id: Number(match[3]) };
}

/**
 * The bound for the source of `rank`: at the cursor's time, a source ranked below the cursor's
 * still has every row to show, one ranked above has none left, the cursor's own source those
 * with a smaller id.
 */
export function boundFor(cursor: RecordKey, rank: SourceRank): SourceBound {
  const idBelow = rank === cursor.rank ? cursor.id : rank < cursor.rank ? Number.MAX_SAFE_INTEGER : 0;
  return { at: cursor.at, idBelow };
}

/** Newest first: issuedAt, then source rank, then id, all descending. */
export function compareKeys(a: RecordKey, b: RecordKey): number {
  return b.at.getTime() - a.at.getTime() || b.rank - a.rank || b.id - a.id;
}
