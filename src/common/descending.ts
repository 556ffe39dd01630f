/**
 * How many values of `descending` (sorted highest first) are above `value`: a binary search. The
 * places the players site shows (mini-game results, vote ranks) are this plus one. Pure.
 */
export function countAbove(descending: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = descending.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (descending[middle] > value) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}
