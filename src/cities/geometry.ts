/**
 * City regions: simple rectilinear polygons on the block grid. Pure functions, no framework imports.
 *
 * Corners are block coordinates and the region includes its boundary, so "covers a block" means
 * "the block's integer point lies in the closed polygon".
 */

import { type LocalizedText, msg } from '../common/errors/messages';

export interface Point {
  x: number;
  z: number;
}

export interface BoundingBox {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

export type CornersResult = { ok: true; corners: Point[] } | { ok: false; reason: LocalizedText };

/** The world is far smaller than this; the cap keeps every area and perimeter an exact double. */
export const MAX_COORDINATE = 30_000_000;
/** More corners than any hand-drawn city needs; keeps the O(n²) simplicity check cheap. */
export const MAX_CORNERS = 1000;

const INTEGER_TEXT = /^-?\d{1,9}$/;

function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) ? value : undefined;
  }
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
    const parsed = Number(value);
    return Object.is(parsed, -0) ? 0 : parsed;
  }
  return undefined;
}

/**
 * Reads `corners` as clients send it (`[{id, x, z}]`, numbers or integer strings) and checks that
 * it is a simple rectilinear polygon: at least 4 corners numbered 1..n in order, consecutive corners
 * differing in exactly one axis with the axes alternating, and no two edges touching except
 * neighbours at their shared corner.
 */
export function parseCorners(raw: unknown): CornersResult {
  if (!Array.isArray(raw)) {
    return { ok: false, reason: msg('cities.corners.notList') };
  }
  if (raw.length < 4) {
    return { ok: false, reason: msg('cities.corners.tooFew') };
  }
  if (raw.length > MAX_CORNERS) {
    return { ok: false, reason: msg('cities.corners.tooMany', { max: MAX_CORNERS }) };
  }
  const corners: Point[] = [];
  for (const [index, entry] of raw.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return { ok: false, reason: msg('cities.corners.notObject', { corner: index + 1 }) };
    }
    const { id, x, z } = entry as Record<string, unknown>;
    if (integerOf(id) !== index + 1) {
      return { ok: false, reason: msg('cities.corners.idOrder', { corner: index + 1, id: String(JSON.stringify(id)) }) };
    }
    const px = integerOf(x);
    const pz = integerOf(z);
    if (px === undefined || pz === undefined) {
      return { ok: false, reason: msg('cities.corners.integer', { corner: index + 1 }) };
    }
    if (Math.abs(px) > MAX_COORDINATE || Math.abs(pz) > MAX_COORDINATE) {
      return { ok: false, reason: msg('cities.corners.outside', { corner: index + 1, max: MAX_COORDINATE }) };
    }
    corners.push({ x: px, z: pz });
  }
  const shape = checkShape(corners);
  return shape ? { ok: false, reason: shape } : { ok: true, corners };
}

/** Why the corners are not a simple rectilinear polygon, or undefined when they are. */
export function checkShape(corners: Point[]): LocalizedText | undefined {
  const n = corners.length;
  if (n < 4) {
    return msg('cities.corners.tooFew');
  }
  if (n % 2 !== 0) {
    return msg('cities.corners.odd');
  }
  let previousAxis: 'x' | 'z' | undefined;
  for (let i = 0; i < n; i += 1) {
    const a = corners[i];
    const b = corners[(i + 1) % n];
    const axis = edgeAxis(a, b);
    if (!axis) {
      return msg('cities.corners.diagonal', { a: i + 1, b: ((i + 1) % n) + 1 });
    }
    if (axis === previousAxis) {
      return msg('cities.corners.straight', { corner: i + 1 });
    }
    previousAxis = axis;
  }
  if (edgeAxis(corners[n - 1], corners[0]) === edgeAxis(corners[0], corners[1])) {
    return msg('cities.corners.closingStraight');
  }
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 2; j < n; j += 1) {
      if (i === 0 && j === n - 1) {
        continue; // neighbours through the closing edge
      }
      if (segmentsTouch(corners[i], corners[(i + 1) % n], corners[j], corners[(j + 1) % n])) {
        return msg('cities.corners.crossing', { a: i + 1, b: j + 1 });
      }
    }
  }
  return undefined;
}

/** The axis along which an edge runs ('x' when only x changes), or undefined when both or neither change. */
function edgeAxis(a: Point, b: Point): 'x' | 'z' | undefined {
  const dx = a.x !== b.x;
  const dz = a.z !== b.z;
  if (dx === dz) {
    return undefined;
  }
  return dx ? 'x' : 'z';
}

/** Whether two axis-parallel closed segments share at least one point. */
function segmentsTouch(a1: Point, a2: Point, b1: Point, b2: Point): boolean {
  return (
    Math.max(Math.min(a1.x, a2.x), Math.min(b1.x, b2.x)) <= Math.min(Math.max(a1.x, a2.x), Math.max(b1.x, b2.x)) &&
    Math.max(Math.min(a1.z, a2.z), Math.min(b1.z, b2.z)) <= Math.min(Math.max(a1.z, a2.z), Math.max(b1.z, b2.z))
  );
}

/** Twice the signed area (shoelace). */
function doubleSignedArea(corners: Point[]): number {
  let sum = 0;
  for (let i = 0; i < corners.length; i += 1) {
    const a = corners[i];
    const b = corners[(i + 1) % corners.length];
    sum += a.x * b.z - b.x * a.z;
  }
  return sum;
}

function perimeter(corners: Point[]): number {
  let sum = 0;
  for (let i = 0; i < corners.length; i += 1) {
    const a = corners[i];
    const b = corners[(i + 1) % corners.length];
    sum += Math.abs(a.x - b.x) + Math.abs(a.z - b.z);
  }
  return sum;
}

/**
 * Blocks covered, boundary included: `|shoelace area| + perimeter/2 + 1` (Pick's theorem: interior
 * points plus boundary points). The square (0,0),(0,9),(9,9),(9,0) covers 100 blocks.
 */
export function blockCount(corners: Point[]): number {
  return Math.abs(doubleSignedArea(corners)) / 2 + perimeter(corners) / 2 + 1;
}

export function boundingBox(corners: Point[]): BoundingBox {
  const xs = corners.map((corner) => corner.x);
  const zs = corners.map((corner) => corner.z);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minZ: Math.min(...zs), maxZ: Math.max(...zs) };
}

function boxesIntersect(a: BoundingBox, b: BoundingBox): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minZ <= b.maxZ && b.minZ <= a.maxZ;
}

/** Whether the point lies in the closed polygon (boundary included). */
export function containsPoint(corners: Point[], point: Point): boolean {
  let inside = false;
  for (let i = 0, j = corners.length - 1; i < corners.length; j = i, i += 1) {
    const a = corners[i];
    const b = corners[j];
    if (segmentsTouch(a, b, point, point)) {
      return true;
    }
    // Crossing test with a ray towards +x; vertical edges only (horizontal ones never cross it).
    if (a.x === b.x && a.x > point.x && a.z > point.z !== b.z > point.z) {
      inside = !inside;
    }
  }
  return inside;
}

/**
 * Whether two regions share at least one block. Both polygons have integer corners and
 * axis-parallel edges, so their closed intersection, when not empty, always contains an integer
 * point: sharing a block is the same as the closed polygons meeting. They meet when two edges
 * touch, or else when one polygon lies wholly inside the other.
 */
export function regionsOverlap(a: Point[], b: Point[]): boolean {
  if (!boxesIntersect(boundingBox(a), boundingBox(b))) {
    return false;
  }
  for (let i = 0; i < a.length; i += 1) {
    const a1 = a[i];
    const a2 = a[(i + 1) % a.length];
    for (let j = 0; j < b.length; j += 1) {
      if (segmentsTouch(a1, a2, b[j], b[(j + 1) % b.length])) {
        return true;
      }
    }
  }
  return containsPoint(b, a[0]) || containsPoint(a, b[0]);
}
