import { LAST_PLACE_SCORE, periodmatchScore, placeOnLadder } from './periodmatch-score';

/** The places by definition (1 + how many score higher), the oracle of the tests below. */
function placesOf(scores: readonly number[]): number[] {
  return scores.map((score) => 1 + scores.filter((other) => other > score).length);
}


describe('periodmatchScore', () => {
  it('is (s*s/(s+f) - f) / calc_match_time', () => {
    expect(periodmatchScore(3, 1, 1000)).toBeCloseTo((9 / 4 - 1) / 1000, 12);
    expect(periodmatchScore(1, 5, 100)).toBeCloseTo((1 / 6 - 5) / 100, 12);
  });

  it('ranks no attempts and a zero time last, below any negative score', () => {
    expect(periodmatchScore(0, 0, 1000)).toBe(LAST_PLACE_SCORE);
    expect(periodmatchScore(5, 0, 0)).toBe(LAST_PLACE_SCORE);
    expect(periodmatchScore(0, 1000, 0.001)).toBeGreaterThan(LAST_PLACE_SCORE);
  });

  it('gives equal results one value, so ties share a place', () => {
    const scores = [periodmatchScore(4, 0, 2000), periodmatchScore(2, 0, 1000), periodmatchScore(1, 3, 1000), periodmatchScore(0, 0, 0), periodmatchScore(0, 0, 5)];
    expect(placesOf(scores)).toEqual([1, 1, 3, 4, 4]);
  });
});

describe(placeOnLadder.name, () => {
  it('gives the place placesOf gives, ties shared, for scores on the ladder and between them', () => {
    const scores = [0.5, 0.2, 0.2, LAST_PLACE_SCORE, 0.9, -0.1, 0.2, LAST_PLACE_SCORE];
    const ladder = Float64Array.from([...scores].sort((a, b) => b - a));
    const places = placesOf(scores);
    scores.forEach((score, index) => expect(placeOnLadder(ladder, score)).toBe(places[index]));
    expect(placeOnLadder(ladder, 1)).toBe(1);
    expect(placeOnLadder(ladder, 0.3)).toBe(3);
    expect(placeOnLadder(new Float64Array(0), 0.3)).toBe(1);
  });
});
