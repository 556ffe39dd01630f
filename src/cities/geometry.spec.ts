import fc from 'fast-check';
import { blockCount, boundingBox, checkShape, containsPoint, parseCorners, Point, regionsOverlap } from './geometry';

const pts = (...pairs: Array<[number, number]>): Point[] => pairs.map(([x, z]) => ({ x, z }));
const numbered = (points: Point[]): Array<{ id: number; x: number; z: number }> => points.map((point, index) => ({ id: index + 1, ...point }));
const rect = (x1: number, z1: number, x2: number, z2: number): Point[] => pts([x1, z1], [x1, z2], [x2, z2], [x2, z1]);

/** Blocks covered, counted one by one: the definition the formula must agree with. */
function bruteBlocks(corners: Point[]): Set<string> {
  const box = boundingBox(corners);
  const blocks = new Set<string>();
  for (let x = box.minX; x <= box.maxX; x += 1) {
    for (let z = box.minZ; z <= box.maxZ; z += 1) {
      if (containsPoint(corners, { x, z })) {
        blocks.add(`${x},${z}`);
      }
    }
  }
  return blocks;
}

/** Inside-or-on test written independently of containsPoint: on an edge, or inside by a ray that misses every corner. */
function scanlineBlocks(corners: Point[]): Set<string> {
  const box = boundingBox(corners);
  const blocks = new Set<string>();
  const n = corners.length;
  for (let z = box.minZ; z <= box.maxZ; z += 1) {
    for (let x = box.minX; x <= box.maxX; x += 1) {
      const onEdge = corners.some((a, i) => {
        const b = corners[(i + 1) % n];
        return x >= Math.min(a.x, b.x) && x <= Math.max(a.x, b.x) && z >= Math.min(a.z, b.z) && z <= Math.max(a.z, b.z);
      });
      if (onEdge || isInteriorPoint(corners, x, z)) {
        blocks.add(`${x},${z}`);
      }
    }
  }
  return blocks;
}

/** Even-odd test for a point not on the boundary, ray towards +x through (x, z + 0.25). */
function isInteriorPoint(corners: Point[], x: number, z: number): boolean {
  let inside = false;
  const zz = z + 0.25;
  for (let i = 0; i < corners.length; i += 1) {
    const a = corners[i];
    const b = corners[(i + 1) % corners.length];
    if (a.x === b.x && a.x > x && Math.min(a.z, b.z) < zz && zz < Math.max(a.z, b.z)) {
      inside = !inside;
    }
  }
  return inside;
}

/**
 * A random simple rectilinear polygon: a "histogram" (columns of varying height on a common base),
 * then moved, optionally mirrored and transposed, with a random starting corner and direction.
 */
const histogramPolygon = fc
  .record({
    widths: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }),
    heights: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 5, maxLength: 5 }),
    dx: fc.integer({ min: -12, max: 12 }),
    dz: fc.integer({ min: -12, max: 12 }),
    transpose: fc.boolean(),
    mirror: fc.boolean(),
    start: fc.nat(),
    reverse: fc.boolean(),
  })
  .map(({ widths, heights, dx, dz, transpose, mirror, start, reverse }) => {
    // Neighbouring columns must differ in height, else two corners would lie on one straight edge.
    const columns: Array<{ width: number; height: number }> = [];
    widths.forEach((width, index) => {
      const height = heights[index];
      const last = columns[columns.length - 1];
      if (last && last.height === height) {
        last.width += width;
      } else {
        columns.push({ width, height });
      }
    });
    const outline: Point[] = [{ x: 0, z: 0 }];
    let x = 0;
    for (const column of columns) {
      outline.push({ x, z: column.height });
      x += column.width;
      outline.push({ x, z: column.height });
    }
    outline.push({ x, z: 0 });
    let points = outline.map((point) => ({ x: (mirror ? -point.x : point.x) + dx, z: point.z + dz }));
    if (transpose) {
      points = points.map((point) => ({ x: point.z, z: point.x }));
    }
    if (reverse) {
      points.reverse();
    }
    const shift = start % points.length;
    return [...points.slice(shift), ...points.slice(0, shift)];
  });

describe('parseCorners', () => {
  it('accepts a square given as numbers, as integer strings and as negative strings', () => {
    expect(parseCorners(numbered(rect(0, 0, 9, 9)))).toEqual({ ok: true, corners: rect(0, 0, 9, 9) });
    const strings = [
      { id: 1, x: '-100', z: '200' },
      { id: 2, x: '-100', z: '300' },
      { id: 3, x: '0', z: '300' },
      { id: 4, x: '0', z: '200' },
    ];
    expect(parseCorners(strings)).toEqual({ ok: true, corners: pts([-100, 200], [-100, 300], [0, 300], [0, 200]) });
  });

  it('accepts ids given as digit strings', () => {
    const corners = numbered(rect(0, 0, 3, 3)).map((corner) => ({ ...corner, id: String(corner.id) }));
    expect(parseCorners(corners).ok).toBe(true);
  });

  it.each([
    ['not an array', { id: 1, x: 0, z: 0 }],
    ['a string', '[]'],
    ['null', null],
    ['fewer than 4 corners', numbered(pts([0, 0], [0, 5], [5, 5]))],
    ['a non-object corner', [1, 2, 3, 4]],
    ['an array corner', [[0, 0], [0, 1], [1, 1], [1, 0]]],
  ])('rejects %s', (_label, raw) => {
    expect(parseCorners(raw).ok).toBe(false);
  });

  it.each([
    ['ids starting at 0', rect(0, 0, 5, 5).map((point, index) => ({ id: index, ...point }))],
    ['ids out of order', [2, 1, 3, 4].map((id, index) => ({ id, ...rect(0, 0, 5, 5)[index] }))],
    ['a missing id', rect(0, 0, 5, 5).map((point) => ({ x: point.x, z: point.z }))],
    ['a fractional x', [{ id: 1, x: 0.5, z: 0 }, { id: 2, x: 0.5, z: 5 }, { id: 3, x: 5, z: 5 }, { id: 4, x: 5, z: 0 }]],
    ['a decimal string', [{ id: 1, x: '1.0', z: 0 }, { id: 2, x: '1.0', z: 5 }, { id: 3, x: 5, z: 5 }, { id: 4, x: 5, z: 0 }]],
    ['an exponent string', [{ id: 1, x: '1e2', z: 0 }, { id: 2, x: '1e2', z: 5 }, { id: 3, x: 5, z: 5 }, { id: 4, x: 5, z: 0 }]],
    ['a blank string', [{ id: 1, x: '', z: 0 }, { id: 2, x: '', z: 5 }, { id: 3, x: 5, z: 5 }, { id: 4, x: 5, z: 0 }]],
    ['a padded string', [{ id: 1, x: ' 1', z: 0 }, { id: 2, x: ' 1', z: 5 }, { id: 3, x: 5, z: 5 }, { id: 4, x: 5, z: 0 }]],
    ['a boolean', [{ id: 1, x: true, z: 0 }, { id: 2, x: true, z: 5 }, { id: 3, x: 5, z: 5 }, { id: 4, x: 5, z: 0 }]],
    ['a coordinate beyond the world', numbered(rect(0, 0, 40_000_000, 5))],
    ['a missing z', [{ id: 1, x: 0 }, { id: 2, x: 0, z: 5 }, { id: 3, x: 5, z: 5 }, { id: 4, x: 5, z: 0 }]],
  ])('rejects %s', (_label, raw) => {
    expect(parseCorners(raw).ok).toBe(false);
  });

  it('names the reason for a diagonal edge', () => {
    const result = parseCorners(numbered(pts([0, 0], [0, 5], [5, 6], [5, 0])));
    expect(result).toEqual({ ok: false, reason: expect.objectContaining({ en: expect.stringContaining('exactly one of x and z'), ja: expect.stringContaining('斜め') }) });
  });
});

describe('checkShape', () => {
  it.each([
    ['a square', rect(0, 0, 9, 9)],
    ['a 2x2-block square', rect(3, 3, 4, 4)],
    ['an L shape', pts([0, 0], [0, 10], [4, 10], [4, 4], [10, 4], [10, 0])],
    ['a U shape', pts([0, 0], [0, 10], [3, 10], [3, 3], [7, 3], [7, 10], [10, 10], [10, 0])],
    ['a counter-clockwise square', rect(0, 0, 9, 9).reverse()],
  ])('accepts %s', (_label, corners) => {
    expect(checkShape(corners)).toBeUndefined();
  });

  it.each([
    ['a repeated corner (zero-length edge)', pts([0, 0], [0, 0], [5, 0], [5, 5])],
    ['a diagonal edge', pts([0, 0], [0, 5], [5, 6], [5, 0])],
    ['three corners on one line', pts([0, 0], [0, 5], [0, 9], [9, 9], [9, 0], [5, 0])],
    ['an odd number of corners', pts([0, 0], [0, 5], [5, 5], [5, 0], [3, 0])],
    ['two axes not alternating at the closing edge', pts([0, 0], [0, 5], [5, 5], [5, 2], [5, 0], [2, 0])],
    ['a self-crossing outline', pts([0, 0], [0, 10], [10, 10], [10, 4], [-4, 4], [-4, 6], [6, 6], [6, 0])],
    ['a notch touching the opposite edge', pts([0, -5], [0, 10], [4, 10], [4, -5], [6, -5], [6, 10], [10, 10], [10, -5])],
    ['a figure eight sharing a corner', pts([0, 0], [0, 5], [5, 5], [5, 10], [10, 10], [10, 5], [5, 5], [5, 0])],
    ['an edge running along an earlier edge', pts([0, 0], [0, 10], [10, 10], [10, 5], [0, 5], [0, 2], [5, 2], [5, 0])],
    ['an edge crossing the first edge', pts([0, 0], [0, 10], [10, 10], [10, 5], [-3, 5], [-3, 0])],
  ])('rejects %s', (_label, corners) => {
    expect(checkShape(corners)).toEqual(expect.objectContaining({ en: expect.any(String), ja: expect.any(String) }));
  });

  it('accepts every generated histogram polygon', () => {
    fc.assert(
      fc.property(histogramPolygon, (corners) => {
        expect(checkShape(corners)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('rejects a generated polygon once one corner is pushed off its axis', () => {
    fc.assert(
      fc.property(histogramPolygon, fc.nat(), (corners, which) => {
        const index = which % corners.length;
        const broken = corners.map((corner, i) => (i === index ? { x: corner.x + 1, z: corner.z + 1 } : corner));
        expect(checkShape(broken)).toEqual(expect.objectContaining({ en: expect.any(String), ja: expect.any(String) }));
      }),
      { numRuns: 300 },
    );
  });
});

describe('blockCount', () => {
  it('counts the 10x10 square (0,0),(0,9),(9,9),(9,0) as 100 blocks', () => {
    expect(blockCount(rect(0, 0, 9, 9))).toBe(100);
  });

  it.each([
    ['a 2x2 square', rect(0, 0, 1, 1), 4],
    ['a 2x5 strip', rect(0, 0, 1, 4), 10],
    ['negative coordinates', rect(-100, 200, 0, 300), 101 * 101],
    ['an L shape', pts([0, 0], [0, 10], [4, 10], [4, 4], [10, 4], [10, 0]), 11 * 5 + 5 * 6],
    ['a U shape', pts([0, 0], [0, 10], [3, 10], [3, 3], [7, 3], [7, 10], [10, 10], [10, 0]), 11 * 4 + 4 * 7 * 2],
    ['the largest allowed square', rect(0, 0, 1580, 1580), 1581 * 1581],
  ])('counts %s', (_label, corners, expected) => {
    expect(blockCount(corners)).toBe(expected);
  });

  it('does not depend on orientation or starting corner', () => {
    const corners = pts([0, 0], [0, 10], [4, 10], [4, 4], [10, 4], [10, 0]);
    expect(blockCount([...corners].reverse())).toBe(blockCount(corners));
    expect(blockCount([...corners.slice(2), ...corners.slice(0, 2)])).toBe(blockCount(corners));
  });

  it('equals the blocks counted one by one, for generated polygons', () => {
    fc.assert(
      fc.property(histogramPolygon, (corners) => {
        expect(blockCount(corners)).toBe(bruteBlocks(corners).size);
        expect(scanlineBlocks(corners).size).toBe(bruteBlocks(corners).size);
      }),
      { numRuns: 400 },
    );
  });
});

describe('regionsOverlap', () => {
  const square = rect(0, 0, 9, 9);

  it('sees a shared boundary block as overlap', () => {
    expect(regionsOverlap(square, rect(9, 0, 18, 9))).toBe(true);
    expect(regionsOverlap(square, rect(9, 9, 18, 18))).toBe(true); // one shared corner block
  });

  it('does not see adjacent regions as overlapping', () => {
    expect(regionsOverlap(square, rect(10, 0, 19, 9))).toBe(false);
    expect(regionsOverlap(square, rect(10, 10, 19, 19))).toBe(false);
    expect(regionsOverlap(square, rect(0, 10, 9, 20))).toBe(false);
  });

  it('sees containment as overlap, both ways', () => {
    expect(regionsOverlap(square, rect(2, 2, 4, 4))).toBe(true);
    expect(regionsOverlap(rect(2, 2, 4, 4), square)).toBe(true);
  });

  it('sees a crossing without corners inside as overlap', () => {
    expect(regionsOverlap(rect(0, 4, 20, 6), rect(8, -5, 10, 15))).toBe(true);
  });

  it('does not report interlocking L shapes whose bounding boxes overlap', () => {
    const lower = pts([0, 0], [0, 10], [4, 10], [4, 4], [10, 4], [10, 0]);
    const notch = pts([5, 5], [5, 12], [12, 12], [12, 0], [11, 0], [11, 5]);
    expect(regionsOverlap(lower, notch)).toBe(false);
    expect(regionsOverlap(notch, lower)).toBe(false);
    // Moved one block closer, the notch shape touches the L.
    const touching = pts([4, 5], [4, 12], [12, 12], [12, 0], [11, 0], [11, 5]);
    expect(regionsOverlap(lower, touching)).toBe(true);
  });

  it('does not report a U and a block sitting in its opening without touching', () => {
    const u = pts([0, 0], [0, 10], [3, 10], [3, 3], [7, 3], [7, 10], [10, 10], [10, 0]);
    expect(regionsOverlap(u, rect(4, 4, 6, 12))).toBe(false);
    expect(regionsOverlap(u, rect(3, 4, 6, 12))).toBe(true);
    expect(regionsOverlap(u, rect(4, 3, 6, 12))).toBe(true);
  });

  it('agrees with block-by-block comparison for generated polygons', () => {
    fc.assert(
      fc.property(histogramPolygon, histogramPolygon, (a, b) => {
        const blocksA = bruteBlocks(a);
        const shared = [...bruteBlocks(b)].some((block) => blocksA.has(block));
        expect(regionsOverlap(a, b)).toBe(shared);
        expect(regionsOverlap(b, a)).toBe(shared);
      }),
      { numRuns: 1000 },
    );
  });

  it('is reflexive for generated polygons', () => {
    fc.assert(
      fc.property(histogramPolygon, (a) => {
        expect(regionsOverlap(a, a)).toBe(true);
      }),
    );
  });
});
