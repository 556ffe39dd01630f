import { countLevelsOf, playersAbove } from './count-levels';

describe('count levels', () => {
  const levels = countLevelsOf([
    { voteCount: 3, players: 4 },
    { voteCount: 10, players: 1 },
    { voteCount: 5, players: 2 },
    { voteCount: 7, players: 0 },
  ]);

  it('keeps the levels with players, highest first, with the players at or above each', () => {
    expect(levels).toEqual({ counts: [10, 5, 3], playersAtOrAbove: [1, 3, 7] });
  });

  it.each([
    [11, 0],
    [10, 0],
    [9, 1],
    [5, 1],
    [4, 3],
    [3, 3],
    [1, 7],
    [0, 7],
  ])('counts the players above %i votes: %i', (count, above) => {
    expect(playersAbove(levels, count)).toBe(above);
  });

  it('agrees with a count over every player for random levels', () => {
    let seed = 11;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 200; round += 1) {
      const playerCounts = Array.from({ length: Math.floor(random() * 40) }, () => 1 + Math.floor(random() * 30));
      const byCount = new Map<number, number>();
      for (const count of playerCounts) {
        byCount.set(count, (byCount.get(count) ?? 0) + 1);
      }
      const built = countLevelsOf([...byCount].map(([voteCount, players]) => ({ voteCount, players })));
      for (let count = 0; count <= 31; count += 1) {
        expect(playersAbove(built, count)).toBe(playerCounts.filter((other) => other > count).length);
      }
    }
  });

  it('has no one above anyone when nobody voted', () => {
    expect(playersAbove(countLevelsOf([]), 0)).toBe(0);
  });
});
