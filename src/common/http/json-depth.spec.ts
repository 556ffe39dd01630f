import { exceedsJsonDepth } from './json-depth';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) {
    value = level % 2 === 0 ? { a: value } : [value];
  }
  return value;
}

describe(exceedsJsonDepth.name, () => {
  it('counts the top-level object or array as level 1', () => {
    expect(exceedsJsonDepth(nested(32))).toBe(false);
    expect(exceedsJsonDepth(nested(33))).toBe(true);
    expect(exceedsJsonDepth({ a: 1, b: [1, 2], c: { d: null } }, 2)).toBe(false);
    expect(exceedsJsonDepth({ a: { b: [] } }, 2)).toBe(true);
  });

  it('treats scalars and null as depth 0', () => {
    expect(exceedsJsonDepth('x', 0)).toBe(false);
    expect(exceedsJsonDepth(null, 0)).toBe(false);
  });

  it('copes with 100,000 levels without recursion', () => {
    expect(exceedsJsonDepth(nested(100_000))).toBe(true);
  });
});
