import { countAbove } from '../common/descending';

/**
 * The ranking value of a periodmatch result (docs/game-server.md, Mini-game results). Pure.
 *
 * A result's place within its category (`match_time`) orders results by
 * `(success × success / (success + failure) − failure) / calc_match_time`, highest first; a result
 * with no attempts or a zero (or negative) time ranks last. The value is stored with the result,
 * so a place is `1 + the number of results of the category with a higher score` (ties share it).
 */

/** The stored score of a result that ranks last: below every real score (which is kept above half of it). */
export const LAST_PLACE_SCORE = -1e300;

export function periodmatchScore(success: number, failure: number, calcMatchTime: number): number {
  const attempts = success + failure;
  if (attempts <= 0 || !(calcMatchTime > 0)) {
    return LAST_PLACE_SCORE;
  }
  const score = ((success * success) / attempts - failure) / calcMatchTime;
  return Number.isFinite(score) ? Math.max(score, LAST_PLACE_SCORE / 2) : LAST_PLACE_SCORE;
}


/**
 * The place of `score` in a category whose scores are `ladder`, sorted highest first: 1 + how
 * many score higher, found by binary search.
 */
export function placeOnLadder(ladder: ArrayLike<number>, score: number): number {
  return countAbove(ladder, score) + 1;
}
