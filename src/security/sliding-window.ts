/**
 * A sliding window counted in buckets (SECURITY.md, "Limits"; docs/reliability.md, "Fair shares").
 *
 * A fixed window resets at its boundary, so a client could send the limit just before it and the
 * limit again just after: twice the limit within a moment (1,199 of 600 got through within 2.1 s).
 * Here the window is cut into BUCKETS buckets of `durationMs / BUCKETS`, and a hit is let through
 * only while the hits counted in its own bucket and the BUCKETS before it stay within the limit.
 * Any span of `durationMs` lies within BUCKETS + 1 consecutive buckets, all of which the last hit
 * let through in that span had counted, so no such span lets more than the limit through. The
 * price: a hit is counted for between one window and one window plus a bucket (60 to 66 s for a
 * minute).
 *
 * Pure: the memory and Redis stores keep the buckets and call these functions.
 */
export const BUCKETS = 10;

/** The buckets of one key that are still counted: bucket index → hits. */
export type Buckets = ReadonlyArray<readonly [index: number, count: number]>;

export interface WindowShape {
  readonly bucketMs: number;
  /** Buckets counted besides the current one. */
  readonly buckets: number;
}

export function windowShape(durationMs: number): WindowShape {
  return { bucketMs: Math.max(1, Math.ceil(durationMs / BUCKETS)), buckets: BUCKETS };
}

export function bucketIndex(shape: WindowShape, now: number): number {
  return Math.floor(now / shape.bucketMs);
}

/** The oldest bucket index still counted at `now`. */
export function oldestCounted(shape: WindowShape, now: number): number {
  return bucketIndex(shape, now) - shape.buckets;
}

/** The buckets still counted at `now`, oldest first. */
export function liveBuckets(buckets: Buckets, shape: WindowShape, now: number): Array<[number, number]> {
  const oldest = oldestCounted(shape, now);
  return buckets
    .filter(([index, count]) => index >= oldest && count > 0)
    .map(([index, count]): [number, number] => [index, count])
    .sort((a, b) => a[0] - b[0]);
}

export function total(buckets: Buckets): number {
  return buckets.reduce((sum, [, count]) => sum + count, 0);
}

/** When bucket `index` stops being counted. */
function leavesAt(shape: WindowShape, index: number): number {
  return (index + shape.buckets + 1) * shape.bucketMs;
}

/**
 * Milliseconds until at most `room` fewer hits are counted than the limit allows, that is until
 * `points` more would be let through: the oldest buckets leave first. 0 when they would be now.
 */
export function msUntilRoom(buckets: Buckets, shape: WindowShape, now: number, limit: number, points = 1): number {
  const live = liveBuckets(buckets, shape, now);
  let counted = total(live);
  if (counted + points <= limit) {
    return 0;
  }
  for (const [index, count] of live) {
    counted -= count;
    if (counted + points <= limit) {
      return Math.max(1, leavesAt(shape, index) - now);
    }
  }
  // More points than the limit: never; say a whole window.
  return shape.bucketMs * (shape.buckets + 1);
}

/** Milliseconds until every hit counted now has left the window (0 when none is counted). */
export function msUntilEmpty(buckets: Buckets, shape: WindowShape, now: number): number {
  const live = liveBuckets(buckets, shape, now);
  return live.length === 0 ? 0 : Math.max(1, leavesAt(shape, live[live.length - 1][0]) - now);
}

/** What a store tells about one key after a hit or a look. */
export interface WindowState {
  /** False when the hit was refused (and not counted). */
  readonly allowed: boolean;
  /** Hits counted in the window now (the refused one not among them). */
  readonly count: number;
  /** Milliseconds until one more hit would be let through (0: now). */
  readonly msBeforeNext: number;
  /** Milliseconds until nothing is counted any more. */
  readonly msUntilEmpty: number;
}

export function stateOf(buckets: Buckets, shape: WindowShape, now: number, limit: number, allowed: boolean): WindowState {
  const live = liveBuckets(buckets, shape, now);
  return {
    allowed,
    count: total(live),
    msBeforeNext: Number.isFinite(limit) ? msUntilRoom(live, shape, now, limit) : 0,
    msUntilEmpty: msUntilEmpty(live, shape, now),
  };
}

/**
 * One hit of `points` at `now` against `limit` (Infinity: always counted): the buckets after it
 * and whether it was let through. A refused hit is not counted, so a client that keeps knocking
 * does not push its own wait further out.
 */
export function hit(buckets: Buckets, shape: WindowShape, now: number, limit: number, points = 1): { buckets: Array<[number, number]>; state: WindowState } {
  const live = liveBuckets(buckets, shape, now);
  if (total(live) + points > limit) {
    return { buckets: live, state: stateOf(live, shape, now, limit, false) };
  }
  const current = bucketIndex(shape, now);
  const last = live[live.length - 1];
  if (last && last[0] === current) {
    last[1] += points;
  } else {
    live.push([current, points]);
  }
  return { buckets: live, state: stateOf(live, shape, now, limit, true) };
}

/** Takes `points` back from the newest buckets (a hit that turned out not to count). */
export function reward(buckets: Buckets, shape: WindowShape, now: number, points: number): Array<[number, number]> {
  const live = liveBuckets(buckets, shape, now);
  let left = points;
  for (let position = live.length - 1; position >= 0 && left > 0; position -= 1) {
    const taken = Math.min(left, live[position][1]);
    live[position][1] -= taken;
    left -= taken;
  }
  return live.filter(([, count]) => count > 0);
}
