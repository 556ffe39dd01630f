import { countAbove } from '../common/descending';

/**
 * A vote site's count levels as the ranks read them (docs/players-site.md, "Vote rewards"): the
 * counts players have, highest first, each with how many players have that count or more. Pure:
 * no Nest, no database.
 */
export interface CountLevels {
  /** Distinct vote counts above zero, highest first. */
  readonly counts: readonly number[];
  /** `playersAtOrAbove[i]`: the players whose count is `counts[i]` or more. */
  readonly playersAtOrAbove: readonly number[];
}

/** The levels from `(voteCount, players)` rows in any order; empty levels are left out. */
export function countLevelsOf(rows: ReadonlyArray<{ voteCount: number; players: number }>): CountLevels {
  const sorted = rows.filter((row) => row.players > 0).sort((a, b) => b.voteCount - a.voteCount);
  const counts: number[] = [];
  const playersAtOrAbove: number[] = [];
  let sum = 0;
  for (const row of sorted) {
    sum += row.players;
    counts.push(row.voteCount);
    playersAtOrAbove.push(sum);
  }
  return { counts, playersAtOrAbove };
}

/** How many players have more votes than `count` (a rank is this plus one: ties share a rank). */
export function playersAbove(levels: CountLevels, count: number): number {
  const levelsAbove = countAbove(levels.counts, count);
  return levelsAbove === 0 ? 0 : levels.playersAtOrAbove[levelsAbove - 1];
}
