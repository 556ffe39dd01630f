/**
 * Maps of city regions as SVG text. Pure functions, no framework imports: the service draws its
 * `/maps/cities.svg` and `/cities/{id}/shape.svg` with them, and the console draws a request
 * under review with the same code, in the browser.
 *
 * Block coordinates are used as they are: the inner drawing's viewBox is in blocks, x grows east
 * (to the right) and z grows south (downward on screen, as in the game), so north is up and each
 * outline's `points` are exactly its corners. Only presentation attributes are used (no `style`
 * attributes, no scripts), so the picture passes a strict CSP when inlined in a page.
 */

export interface MapPoint {
  x: number;
  z: number;
}

export interface MapBox {
  minX: number;
  minZ: number;
  maxX: number;
  maxZ: number;
}

/** How an outline is painted: registered cities, a requested outline, a city's current outline. */
export type ShapeStyle = 'city' | 'requested' | 'current';

export interface MapShape {
  /** Drawn as the outline's label. */
  name: string;
  corners: MapPoint[];
  style?: ShapeStyle;
  /** An identifier carried to the outline's `data-city-id` (registered cities). */
  id?: number;
}

export interface MapOptions {
  /** The visible box in blocks (inclusive); default: every shape with a margin. */
  box?: MapBox;
  /** The picture's accessible name (its `<title>`). */
  title: string;
  /**
   * Label corners with their coordinates: those of the requested and current outlines when the map
   * has any (the cities around are context), else those of every shape (a single city's shape).
   * A label goes to another spot around its corner when its first one would cover another label or
   * leave the drawing, and is left out only when no spot is free: the console lists the corners as
   * text beside the map.
   */
  cornerLabels?: boolean;
  /** The longer side of the drawing area in pixels. */
  size?: number;
  /** The id of the `<title>` (unique when several maps share a page). */
  titleId?: string;
  /** Axis captions (the console passes them translated). */
  captions?: { x: string; z: string; north: string };
  /**
   * The width of a text in pixels. The console measures with the browser's own fonts; without it
   * widths are estimated generously (estimateTextWidth), so a label is never wider than its room.
   */
  measureText?: MeasureText;
}

/** The width in pixels of `text` at `fontPx`, bold or not. */
export type MeasureText = (text: string, fontPx: number, bold?: boolean) => number;

const CAPTIONS = { x: 'x → (east)', z: 'z ↓ (south)', north: 'N ↑' };

/** The longest side, in blocks, a map may show (docs/console-and-maps.md, Maps). */
export const MAX_MAP_SIDE = 100_000;

const PALETTE: Record<ShapeStyle, { fill: string; stroke: string; dash?: string; text: string }> = {
  city: { fill: '#8fb8de', stroke: '#1f4e79', text: '#12304d' },
  current: { fill: '#b9d7a8', stroke: '#2e6b1f', text: '#1d4614' },
  requested: { fill: '#f6c28b', stroke: '#b3480b', dash: '6 4', text: '#7a2e04' },
};

const MARGIN = { left: 76, top: 46, right: 24, bottom: 40 };
const FONT = 'system-ui, sans-serif';

/**
 * What XML 1.0 does not allow in a document at all, raw or escaped: C0 controls but tab, line feed
 * and carriage return, lone surrogates, U+FFFE and U+FFFF. Inputs refuse them since 0.3.0; a name
 * stored before must still not break a picture (SECURITY.md, untrusted text), so they are dropped.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for an XML attribute or element: markup characters escaped, characters XML forbids dropped. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Parses `bbox=x1,z1,x2,z2` (integers, any two opposite corners). Returns the box, or why it is
 * not acceptable (not four integers, or a side longer than MAX_MAP_SIDE).
 */
export function parseBbox(text: string): { ok: true; box: MapBox } | { ok: false; reason: 'format' | 'tooLarge' } {
  const parts = text.split(',');
  if (parts.length !== 4 || parts.some((part) => !/^-?\d{1,9}$/.test(part.trim()))) {
    return { ok: false, reason: 'format' };
  }
  const [x1, z1, x2, z2] = parts.map((part) => Number(part.trim()));
  const box = { minX: Math.min(x1, x2), minZ: Math.min(z1, z2), maxX: Math.max(x1, x2), maxZ: Math.max(z1, z2) };
  if (box.maxX - box.minX + 1 > MAX_MAP_SIDE || box.maxZ - box.minZ + 1 > MAX_MAP_SIDE) {
    return { ok: false, reason: 'tooLarge' };
  }
  return { ok: true, box };
}

export function shapeBox(corners: MapPoint[]): MapBox {
  const xs = corners.map((corner) => corner.x);
  const zs = corners.map((corner) => corner.z);
  return { minX: Math.min(...xs), minZ: Math.min(...zs), maxX: Math.max(...xs), maxZ: Math.max(...zs) };
}

function unionBox(boxes: MapBox[]): MapBox | undefined {
  if (boxes.length === 0) {
    return undefined;
  }
  return {
    minX: Math.min(...boxes.map((box) => box.minX)),
    minZ: Math.min(...boxes.map((box) => box.minZ)),
    maxX: Math.max(...boxes.map((box) => box.maxX)),
    maxZ: Math.max(...boxes.map((box) => box.maxZ)),
  };
}

/** The box around the shapes with a margin of a tenth of their span (at least 8 blocks). */
export function boxAround(shapes: Array<{ corners: MapPoint[] }>, margin = 0.1): MapBox {
  const box = unionBox(shapes.filter((shape) => shape.corners.length > 0).map((shape) => shapeBox(shape.corners))) ?? { minX: -50, minZ: -50, maxX: 50, maxZ: 50 };
  const pad = Math.max(8, Math.ceil(Math.max(box.maxX - box.minX, box.maxZ - box.minZ) * margin));
  return { minX: box.minX - pad, minZ: box.minZ - pad, maxX: box.maxX + pad, maxZ: box.maxZ + pad };
}

function boxesTouch(a: MapBox, b: MapBox): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minZ <= b.maxZ && b.minZ <= a.maxZ;
}

/** A grid step of 1, 2 or 5 times a power of ten giving about `target` lines across `span`. */
export function gridStep(span: number, target = 8): number {
  const raw = Math.max(span / target, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) {
    if (factor * power >= raw) {
      return factor * power;
    }
  }
  return 10 * power;
}

/** Numbers in SVG text: integers as they are, else rounded to 3 decimals. */
function num(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
}

function inside(corners: MapPoint[], x: number, z: number): boolean {
  let result = false;
  for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) {
    const a = corners[i];
    const b = corners[j];
    if (a.z > z !== b.z > z && x < ((b.x - a.x) * (z - a.z)) / (b.z - a.z) + a.x) {
      result = !result;
    }
  }
  return result;
}

/** A point inside the outline to put its name at: the area centroid, or the middle of the widest span through it. */
export function labelPoint(corners: MapPoint[]): MapPoint {
  let area = 0;
  let cx = 0;
  let cz = 0;
  for (let i = 0; i < corners.length; i++) {
    const a = corners[i];
    const b = corners[(i + 1) % corners.length];
    const cross = a.x * b.z - b.x * a.z;
    area += cross;
    cx += (a.x + b.x) * cross;
    cz += (a.z + b.z) * cross;
  }
  if (area === 0) {
    const box = shapeBox(corners);
    return { x: (box.minX + box.maxX) / 2, z: (box.minZ + box.maxZ) / 2 };
  }
  const centroid = { x: cx / (3 * area), z: cz / (3 * area) };
  if (inside(corners, centroid.x, centroid.z)) {
    return centroid;
  }
  // Horizontal line through the centroid (nudged off any corner row): take the widest inner interval.
  const z = Number.isInteger(centroid.z) ? centroid.z + 0.5 : centroid.z;
  const crossings: number[] = [];
  for (let i = 0; i < corners.length; i++) {
    const a = corners[i];
    const b = corners[(i + 1) % corners.length];
    if (a.z > z !== b.z > z) {
      crossings.push(a.x + ((b.x - a.x) * (z - a.z)) / (b.z - a.z));
    }
  }
  crossings.sort((p, q) => p - q);
  let best = { x: centroid.x, width: -1 };
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const width = crossings[i + 1] - crossings[i];
    if (width > best.width) {
      best = { x: (crossings[i] + crossings[i + 1]) / 2, width };
    }
  }
  return { x: best.x, z };
}


/**
 * A generous width of a text in pixels without a browser to measure it: wide (CJK) characters a
 * full em, capitals 0.75 em, the rest 0.62 em (DejaVu Sans, the usual system-ui on Linux, has
 * 0.64 em digits), bold a tenth wider.
 */
export function estimateTextWidth(text: string, fontPx: number, bold = false): number {
  let em = 0;
  for (const char of text) {
    em += isWide(char) ? 1 : /[A-Z%@&]/.test(char) ? 0.75 : 0.62;
  }
  return em * fontPx * (bold ? 1.1 : 1);
}

function isWide(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code >= 0x2e80 && !(code >= 0xff61 && code <= 0xffdc);
}

/**
 * How far a line of text reaches above and below its baseline, in ems: the fonts' own line
 * extents (DejaVu Sans 0.93 + 0.24; Noto Sans CJK, which draws Japanese, 1.16 + 0.29), which is
 * what a browser reports as the text's box.
 */
function textExtent(text: string): { ascent: number; descent: number } {
  return [...text].some(isWide) ? { ascent: 1.16, descent: 0.29 } : { ascent: 0.93, descent: 0.24 };
}

interface PixelRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function overlaps(a: PixelRect, b: PixelRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The labels placed so far, in pixels, and the area they must stay in: a label is placed only
 * where it covers no other one and leaves no part outside (so it is neither hidden nor clipped).
 * Rectangles are kept in 64 px cells, so a map of thousands of cities checks only its neighbours.
 */
class LabelSpace {
  private readonly cells = new Map<string, PixelRect[]>();
  private static readonly CELL = 64;

  constructor(private readonly area: PixelRect) {}

  free(rect: PixelRect): boolean {
    const { area } = this;
    if (rect.left < area.left || rect.top < area.top || rect.right > area.right || rect.bottom > area.bottom) {
      return false;
    }
    return this.keys(rect).every((key) => !(this.cells.get(key) ?? []).some((other) => overlaps(rect, other)));
  }

  take(rect: PixelRect): void {
    for (const key of this.keys(rect)) {
      const cell = this.cells.get(key);
      if (cell) {
        cell.push(rect);
      } else {
        this.cells.set(key, [rect]);
      }
    }
  }

  private keys(rect: PixelRect): string[] {
    const size = LabelSpace.CELL;
    const keys: string[] = [];
    for (let i = Math.floor(rect.left / size); i <= Math.floor(rect.right / size); i++) {
      for (let j = Math.floor(rect.top / size); j <= Math.floor(rect.bottom / size); j++) {
        keys.push(`${i}:${j}`);
      }
    }
    return keys;
  }
}

/** The next grid step after `step` (1, 2, 5 times a power of ten). */
function nextStep(step: number): number {
  const power = 10 ** Math.floor(Math.log10(step));
  const factor = Math.round(step / power);
  return factor < 2 ? 2 * power : factor < 5 ? 5 * power : 10 * power;
}

/** Room between a label and what it names or sits beside, in pixels. */
const GAP_PX = 4;
const CORNER_FONT_PX = 11;
/** Gap between a corner's dot and its label, in pixels. */
const CORNER_GAP_PX = 5;

/**
 * Draws the shapes (registered cities, and optionally requested or current outlines) over a
 * coordinate grid with labelled axes. Shapes outside the box are left out.
 *
 * No two texts overlap and none is clipped, at any size: the grid step grows until its tick
 * values have room (a phone shows 0, 500, 1000 rather than 2200240026002800), a tick that would
 * touch a caption is left out, an outline's name goes inside the outline where it fits, else
 * beside it, else shortened with "…" (the outline then carries the whole name as its tooltip),
 * and a corner shared by two outlines is labelled once.
 */
export function renderMapSvg(shapes: MapShape[], options: MapOptions): string {
  const box = options.box ?? boxAround(shapes);
  const spanX = Math.max(box.maxX - box.minX, 1);
  const spanZ = Math.max(box.maxZ - box.minZ, 1);
  const size = options.size ?? 800;
  const scale = size / Math.max(spanX, spanZ);
  const width = Math.round(spanX * scale);
  const height = Math.round(spanZ * scale);
  const outerWidth = width + MARGIN.left + MARGIN.right;
  const outerHeight = height + MARGIN.top + MARGIN.bottom;
  const fontPx = 13;
  const titleId = escapeXml(options.titleId ?? 'map-title');
  const unit = 1 / scale; // one pixel, in blocks
  const measure: MeasureText = options.measureText ?? estimateTextWidth;
  /** A text's box in pixels, from where its anchor and baseline are. */
  const textRect = (text: string, px: number, x: number, baseline: number, anchor: 'start' | 'middle' | 'end', bold = false): PixelRect => {
    const w = measure(text, px, bold) + 2;
    const { ascent, descent } = textExtent(text);
    const left = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
    return { left, right: left + w, top: baseline - ascent * px, bottom: baseline + descent * px };
  };

  const visible = shapes.filter((shape) => shape.corners.length > 0 && boxesTouch(shapeBox(shape.corners), box));
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${titleId}" width="${outerWidth}" height="${outerHeight}" ` +
      `viewBox="0 0 ${outerWidth} ${outerHeight}" font-family="${FONT}" font-size="${fontPx}">`,
  );
  out.push(`<title id="${titleId}">${escapeXml(options.title)}</title>`);
  out.push(`<rect x="0" y="0" width="${outerWidth}" height="${outerHeight}" fill="#ffffff"/>`);

  // The grid step: round, and wide enough that neighbouring tick values never touch.
  let step = gridStep(Math.max(spanX, spanZ));
  const tickValues = (min: number, max: number, every: number): number[] => {
    const values: number[] = [];
    for (let value = Math.ceil(min / every) * every; value <= max; value += every) {
      values.push(value);
    }
    return values;
  };
  for (let tries = 0; tries < 12; tries++) {
    const widest = Math.max(0, ...[...tickValues(box.minX, box.maxX, step), box.minX, box.maxX].map((value) => measure(String(value), fontPx)));
    if (step * scale >= widest + 12 && step * scale >= fontPx * 1.6) {
      break;
    }
    step = nextStep(step);
  }

  // Axis texts (pixel space): captions first, then the ticks that leave them room.
  const axes = new LabelSpace({ left: 0, top: 0, right: outerWidth, bottom: outerHeight });
  const captions = options.captions ?? CAPTIONS;
  const axisTexts: string[] = [];
  const caption = (text: string, x: number, y: number, anchor: 'start' | 'middle' | 'end'): void => {
    axes.take(textRect(text, fontPx, x, y, anchor, true));
    axisTexts.push(`<text x="${num(x)}" y="${num(y)}" text-anchor="${anchor}" fill="#333333" font-weight="bold">${escapeXml(text)}</text>`);
  };
  caption(captions.x, MARGIN.left + width / 2, outerHeight - 14, 'middle');
  // The z caption sits in the top-left corner, over the column of z ticks it names (no rotated text: its arrow points down).
  caption(captions.z, 4, 18, 'start');
  caption(captions.north, outerWidth - MARGIN.right, 18, 'end');
  const tick = (text: string, x: number, y: number, anchor: 'middle' | 'end', kind: string): void => {
    const rect = textRect(text, fontPx, x, y, anchor);
    if (axes.free(rect)) {
      axes.take(rect);
      axisTexts.push(`<text x="${num(x)}" y="${num(y)}" text-anchor="${anchor}" fill="#333333" class="${kind}">${text}</text>`);
    }
  };
  for (const x of tickValues(box.minX, box.maxX, step)) {
    tick(String(x), MARGIN.left + (x - box.minX) * scale, MARGIN.top - 10, 'middle', 'tick-x');
  }
  for (const z of tickValues(box.minZ, box.maxZ, step)) {
    tick(String(z), MARGIN.left - 6, MARGIN.top + (z - box.minZ) * scale + fontPx * 0.35, 'end', 'tick-z');
  }
  out.push(`<g class="axes">${axisTexts.join('')}</g>`);

  // The drawing itself, in block coordinates.
  out.push(
    `<svg class="map" x="${MARGIN.left}" y="${MARGIN.top}" width="${width}" height="${height}" ` +
      `viewBox="${box.minX} ${box.minZ} ${spanX} ${spanZ}" preserveAspectRatio="none" overflow="hidden">`,
  );
  out.push(`<rect x="${box.minX}" y="${box.minZ}" width="${spanX}" height="${spanZ}" fill="#f7f7f2" stroke="#999999" stroke-width="1" vector-effect="non-scaling-stroke"/>`);
  const lines: string[] = [];
  for (const x of tickValues(box.minX, box.maxX, step)) {
    lines.push(`<line x1="${x}" y1="${box.minZ}" x2="${x}" y2="${box.maxZ}" vector-effect="non-scaling-stroke"/>`);
  }
  for (const z of tickValues(box.minZ, box.maxZ, step)) {
    lines.push(`<line x1="${box.minX}" y1="${z}" x2="${box.maxX}" y2="${z}" vector-effect="non-scaling-stroke"/>`);
  }
  // vector-effect is not inherited: each line carries it, so grid lines stay one pixel wide at any scale.
  out.push(`<g class="grid" stroke="#d5d5cc" stroke-width="1">${lines.join('')}</g>`);

  // Registered cities first, then current and requested outlines on top.
  const order: ShapeStyle[] = ['city', 'current', 'requested'];
  const sorted = [...visible].sort((a, b) => order.indexOf(a.style ?? 'city') - order.indexOf(b.style ?? 'city'));
  const reviewing = sorted.some((shape) => (shape.style ?? 'city') !== 'city');
  const space = new LabelSpace({ left: 0, top: 0, right: width, bottom: height });
  const toPx = (point: MapPoint): MapPoint => ({ x: (point.x - box.minX) * scale, z: (point.z - box.minZ) * scale });
  const toBlocks = (x: number, y: number): MapPoint => ({ x: box.minX + x * unit, z: box.minZ + y * unit });

  // Names are placed in order of importance (the outlines under review, then the cities around),
  // and drawn in the drawing's order.
  const names = new Map<MapShape, NamePlacement | null>();
  for (const shape of [...sorted].reverse()) {
    names.set(shape, placeName(shape, { space, measure, fontPx, toPx, toBlocks, view: { left: 0, top: 0, right: width, bottom: height } }));
  }
  const labels: string[] = [];
  const cornerShapes: MapPoint[][] = [];
  for (const shape of sorted) {
    const style = shape.style ?? 'city';
    const paint = PALETTE[style];
    const points = shape.corners.map((corner) => `${corner.x},${corner.z}`).join(' ');
    const id = shape.id !== undefined ? ` data-city-id="${shape.id}"` : '';
    const name = names.get(shape) ?? null;
    // Where the name is shortened or left out, the outline carries it as its tooltip.
    const tooltip = name === null || name.text !== shape.name ? `<title>${escapeXml(shape.name)}</title>` : '';
    const attributes =
      `class="outline ${style}"${id} data-name="${escapeXml(shape.name)}" points="${points}" fill="${paint.fill}" fill-opacity="0.55" ` +
      `stroke="${paint.stroke}" stroke-width="2" vector-effect="non-scaling-stroke"${paint.dash ? ` stroke-dasharray="${paint.dash}"` : ''}`;
    out.push(tooltip ? `<polygon ${attributes}>${tooltip}</polygon>` : `<polygon ${attributes}/>`);
    if (name) {
      const at = toBlocks(name.x, name.baseline);
      labels.push(
        `<text class="name" x="${num(at.x)}" y="${num(at.z)}" font-size="${num(fontPx * unit)}" text-anchor="middle" data-name="${escapeXml(shape.name)}" ` +
          `fill="${paint.text}" stroke="#ffffff" stroke-width="${num(3 * unit)}" paint-order="stroke" pointer-events="none">${escapeXml(name.text)}</text>`,
      );
    }
    if (options.cornerLabels && (!reviewing || style !== 'city')) {
      for (const corner of shape.corners) {
        labels.push(`<circle class="corner" cx="${corner.x}" cy="${corner.z}" r="${num(3 * unit)}" fill="${paint.stroke}"/>`);
      }
      cornerShapes.push(shape.corners);
    }
  }
  // Corner labels last, so they keep clear of every name placed above; a corner two outlines share is labelled once.
  const labelled = new Set<string>();
  for (const shapeCorners of cornerShapes) {
    labels.push(...placeCorners(shapeCorners, labelled, { space, measure, toPx, toBlocks, unit }));
  }
  out.push(...labels);
  out.push('</svg>');
  out.push('</svg>');
  return out.join('\n');
}

interface NamePlacement {
  /** The text shown: the name, or its start and "…". */
  text: string;
  /** Centre and baseline, in pixels from the drawing's top-left corner. */
  x: number;
  baseline: number;
}

interface Layout {
  space: LabelSpace;
  measure: MeasureText;
  toPx: (point: MapPoint) => MapPoint;
  toBlocks: (x: number, y: number) => MapPoint;
}

/**
 * Where an outline's name goes: inside the outline (at its label point, or a line above or below)
 * where it fits whole; else beside the outline (below, above, right, left); else shortened inside
 * (a neighbour cut by the view's edge: shortened inside before beside); else nowhere (the
 * outline's tooltip names it). Null when no spot is free.
 */
function placeName(shape: MapShape, layout: Layout & { fontPx: number; view: PixelRect }): NamePlacement | null {
  const { space, measure, fontPx, toPx, toBlocks, view } = layout;
  const outline = shapeBox(shape.corners);
  const topLeft = toPx({ x: outline.minX, z: outline.minZ });
  const bottomRight = toPx({ x: outline.maxX, z: outline.maxZ });
  // The outline's part in view: a neighbour reaching in from the edge keeps its whole name in sight (not "Minat").
  const room = { left: Math.max(topLeft.x, view.left), top: Math.max(topLeft.z, view.top), right: Math.min(bottomRight.x, view.right), bottom: Math.min(bottomRight.z, view.bottom) };
  const { ascent, descent } = textExtent(shape.name);
  const height = (ascent + descent) * fontPx;
  const point = toPx(labelPoint(shape.corners));
  const clamp = (value: number, low: number, high: number): number => (low > high ? (low + high) / 2 : Math.min(Math.max(value, low), high));
  const rectAt = (text: string, x: number, top: number): PixelRect => {
    const w = measure(text, fontPx) + 2;
    return { left: x - w / 2, right: x + w / 2, top, bottom: top + height };
  };
  const within = (rect: PixelRect): boolean => {
    if (rect.left < room.left + 1 || rect.right > room.right - 1 || rect.top < room.top + 1 || rect.bottom > room.bottom - 1) {
      return false;
    }
    // Not a rectangle: each corner of the text must be inside the outline too.
    return [toBlocks(rect.left, rect.top), toBlocks(rect.right, rect.top), toBlocks(rect.left, rect.bottom), toBlocks(rect.right, rect.bottom)].every((corner) =>
      insideOrOn(shape.corners, corner),
    );
  };
  const tryAt = (text: string, x: number, top: number, inside: boolean): NamePlacement | null => {
    const rect = rectAt(text, x, top);
    if ((inside && !within(rect)) || !space.free(rect)) {
      return null;
    }
    space.take(rect);
    return { text, x: (rect.left + rect.right) / 2, baseline: rect.top + ascent * fontPx };
  };
  const insideSpots = (text: string): Array<[number, number]> => {
    const half = (measure(text, fontPx) + 2) / 2;
    const x = clamp(point.x, room.left + half + 1, room.right - half - 1);
    const top = clamp(point.z - height / 2, room.top + 1, room.bottom - height - 1);
    const spots: Array<[number, number]> = [[x, top]];
    for (let k = 1; k <= 3; k++) {
      spots.push([x, top + k * height], [x, top - k * height]);
    }
    return spots;
  };
  for (const [x, top] of insideSpots(shape.name)) {
    const placed = tryAt(shape.name, x, top, true);
    if (placed) {
      return placed;
    }
  }
  // Shortened: the longest start of the name that fits inside, with "…" (two characters at least).
  const shortened = (): NamePlacement | null => {
    const chars = [...shape.name];
    for (let keep = chars.length - 1; keep >= 2; keep--) {
      const text = `${chars.slice(0, keep).join('')}…`;
      if (measure(text, fontPx) + 4 > room.right - room.left) {
        continue;
      }
      for (const [x, top] of insideSpots(text)) {
        const placed = tryAt(text, x, top, true);
        if (placed) {
          return placed;
        }
      }
      return null;
    }
    return null;
  };
  // A neighbour cut by the view's edge is context: a short name inside it reads better than a
  // whole one beside it, over the outlines under review.
  const cut = room.left > topLeft.x || room.right < bottomRight.x || room.top > topLeft.z || room.bottom < bottomRight.z;
  if (cut) {
    const placed = shortened();
    if (placed) {
      return placed;
    }
  }
  const w = measure(shape.name, fontPx) + 2;
  const middleX = clamp((room.left + room.right) / 2, view.left + w / 2, view.right - w / 2);
  const middleTop = clamp(point.z - height / 2, view.top, view.bottom - height);
  const beside: Array<[number, number]> = [
    [middleX, room.bottom + GAP_PX],
    [middleX, room.top - GAP_PX - height],
    [room.right + GAP_PX + w / 2, middleTop],
    [room.left - GAP_PX - w / 2, middleTop],
  ];
  for (const [x, top] of beside) {
    // Beside means next to it: a label pushed along the edge of the view until its middle is no
    // longer over or level with the outline would name its neighbour instead; shortening is clearer.
    const level = top + height / 2 >= room.top && top + height / 2 <= room.bottom;
    if (!(x >= room.left && x <= room.right) && !level) {
      continue;
    }
    const placed = tryAt(shape.name, x, top, false);
    if (placed) {
      return placed;
    }
  }
  return cut ? null : shortened();
}

/** Inside the polygon or on its edge (a text touching a rectangle's side from inside counts as in). */
function insideOrOn(corners: MapPoint[], point: MapPoint): boolean {
  const box = shapeBox(corners);
  if (point.x < box.minX || point.x > box.maxX || point.z < box.minZ || point.z > box.maxZ) {
    return false;
  }
  // Nudged a hair towards the box's middle, so a point on an edge of an axis-aligned outline counts as inside.
  const nudge = 1e-6;
  const x = point.x + (point.x < (box.minX + box.maxX) / 2 ? nudge : -nudge);
  const z = point.z + (point.z < (box.minZ + box.maxZ) / 2 ? nudge : -nudge);
  return inside(corners, x, z);
}

/**
 * Places corner labels outside their outline (left corners labelled to the left, top corners
 * above), else at another spot around the corner, and leaves out a label only when every spot
 * would cover one already placed or leave the drawing, so two corners a few blocks apart never
 * print over each other ("(-120, 200)100, 200)"). A corner in `labelled` (shared with an
 * outline labelled before) gets no second label.
 */
function placeCorners(corners: MapPoint[], labelled: Set<string>, layout: Layout & { unit: number }): string[] {
  const { space, measure, toPx, unit } = layout;
  const outline = shapeBox(corners);
  const middle = { x: (outline.minX + outline.maxX) / 2, z: (outline.minZ + outline.maxZ) / 2 };
  const { ascent, descent } = textExtent('0');
  const height = (ascent + descent) * CORNER_FONT_PX;
  const texts: string[] = [];
  for (const corner of corners) {
    const key = `${corner.x},${corner.z}`;
    if (labelled.has(key)) {
      continue;
    }
    labelled.add(key);
    const text = `(${corner.x}, ${corner.z})`;
    const width = measure(text, CORNER_FONT_PX) + 2;
    const { x, z: y } = toPx(corner);
    const side = Math.sign(corner.x - middle.x);
    const below = corner.z > middle.z;
    // Outside the outline first; where that spot is taken (two corners a few blocks apart) or
    // off the drawing, the other spots around the corner, and only then no label.
    const spots: Array<{ side: number; below: boolean }> = [
      { side, below },
      { side, below: !below },
      { side: -side, below },
      { side: -side, below: !below },
      { side: 0, below },
      { side: 0, below: !below },
    ];
    for (const spot of spots) {
      const left = spot.side < 0 ? x - CORNER_GAP_PX - width : spot.side > 0 ? x + CORNER_GAP_PX : x - width / 2;
      const top = spot.below ? y + CORNER_GAP_PX : y - CORNER_GAP_PX - height;
      const rect = { left, top, right: left + width, bottom: top + height };
      if (!space.free(rect)) {
        continue;
      }
      space.take(rect);
      const anchorX = (rect.left + rect.right) / 2;
      const at = layout.toBlocks(anchorX, top + ascent * CORNER_FONT_PX);
      const anchor = spot.side < 0 ? 'end' : spot.side > 0 ? 'start' : 'middle';
      // The anchor is kept as before (left corners end-anchored) with x at the text's matching edge.
      const anchorAt = layout.toBlocks(anchor === 'end' ? rect.right - 1 : anchor === 'start' ? rect.left + 1 : anchorX, 0).x;
      texts.push(
        `<text class="corner-label" x="${num(anchorAt)}" y="${num(at.z)}" font-size="${num(CORNER_FONT_PX * unit)}" ` +
          `text-anchor="${anchor}" fill="#222222" stroke="#ffffff" stroke-width="${num(3 * unit)}" paint-order="stroke" pointer-events="none">${text}</text>`,
      );
      break;
    }
  }
  return texts;
}
