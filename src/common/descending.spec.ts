import { countAbove } from './descending';

describe(countAbove.name, () => {
  it.each([
    [[9, 7, 7, 3], 10, 0],
    [[9, 7, 7, 3], 9, 0],
    [[9, 7, 7, 3], 8, 1],
    [[9, 7, 7, 3], 7, 1],
    [[9, 7, 7, 3], 5, 3],
    [[9, 7, 7, 3], 0, 4],
    [[], 1, 0],
  ])('counts the values of %j above %d: %d', (values, value, above) => {
    expect(countAbove(values, value)).toBe(above);
    expect(countAbove(Float64Array.from(values), value)).toBe(above);
  });
});
