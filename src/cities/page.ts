/** Paging (docs/api.md, Requests and responses): `limit` entries with an id greater than `after`, oldest first. */
export interface PageQuery {
  limit: number;
  after: number;
}

/** `next`: the last returned id when more entries follow, else null. */
export interface Page<T> {
  data: T[];
  next: number | null;
}

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 500;

/** From up to `limit + 1` rows (the one extra tells whether more follow). */
export function pageOf<T extends { id: number }>(rows: T[], limit: number): Page<T> {
  const data = rows.slice(0, limit);
  return { data, next: rows.length > limit ? data[data.length - 1].id : null };
}

/** The page a request asks for, defaults filled in. */
export function pageQuery(input: { limit?: number; after?: number }): PageQuery {
  return { limit: input.limit ?? DEFAULT_PAGE_LIMIT, after: input.after ?? 0 };
}
