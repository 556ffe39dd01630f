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
}

const CAPTIONS = { x: 'x → (east)', z: 'z ↓ (south)', north: 'N ↑' };

/** The longest side, in blocks, a map may show (docs/console-and-maps.md, Maps). */
export const MAX_MAP_SIDE = 100_000;

const PALETTE: Record<ShapeStyle, { fill: string; stroke: string; dash?: string; text: string }> = {
  city: { fill: '#8fb8de', stroke: '#1f4e79', text: '#12304d' },
  current: { fill: '#b9d7a8', stroke: '#2e6b1f', text: '#1d4614' },
  requested: { fill: '#f6c28b', stroke: '#b3480b', dash: '6 4', text: '#7a2e04' },
};

const MARGIN = { left: 76, top: 40, right: 24, bottom: 40 };
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
 * Draws the shapes (registered cities, and optionally requested or current outlines) over a
 * coordinate grid with labelled axes. Shapes outside the box are left out.
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

  const visible = shapes.filter((shape) => shape.corners.length > 0 && boxesTouch(shapeBox(shape.corners), box));
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${titleId}" width="${outerWidth}" height="${outerHeight}" ` +
      `viewBox="0 0 ${outerWidth} ${outerHeight}" font-family="${FONT}" font-size="${fontPx}">`,
  );
  out.push(`<title id="${titleId}">${escapeXml(options.title)}</title>`);
  out.push(`<rect x="0" y="0" width="${outerWidth}" height="${outerHeight}" fill="#ffffff"/>`);

  // Axis labels (pixel space): x along the top, z down the left.
  const step = gridStep(Math.max(spanX, spanZ));
  const ticks: string[] = [];
  for (let x = Math.ceil(box.minX / step) * step; x <= box.maxX; x += step) {
    const px = MARGIN.left + (x - box.minX) * scale;
    ticks.push(`<text x="${num(px)}" y="${MARGIN.top - 8}" text-anchor="middle" fill="#333333" class="tick-x">${x}</text>`);
  }
  for (let z = Math.ceil(box.minZ / step) * step; z <= box.maxZ; z += step) {
    const py = MARGIN.top + (z - box.minZ) * scale;
    ticks.push(`<text x="${MARGIN.left - 6}" y="${num(py + 4)}" text-anchor="end" fill="#333333" class="tick-z">${z}</text>`);
  }
  out.push(`<g class="axes">${ticks.join('')}`);
  const captions = options.captions ?? CAPTIONS;
  out.push(`<text x="${MARGIN.left + width / 2}" y="${outerHeight - 12}" text-anchor="middle" fill="#333333" font-weight="bold">${escapeXml(captions.x)}</text>`);
  // The z caption sits in the top-left corner, over the column of z ticks it names (no rotated text: its arrow points down).
  out.push(`<text x="4" y="${MARGIN.top - 22}" text-anchor="start" fill="#333333" font-weight="bold">${escapeXml(captions.z)}</text>`);

  out.push(`<text x="${outerWidth - MARGIN.right}" y="${MARGIN.top - 22}" text-anchor="end" fill="#333333" font-weight="bold">${escapeXml(captions.north)}</text>`);
  out.push('</g>');

  // The drawing itself, in block coordinates.
  out.push(
    `<svg class="map" x="${MARGIN.left}" y="${MARGIN.top}" width="${width}" height="${height}" ` +
      `viewBox="${box.minX} ${box.minZ} ${spanX} ${spanZ}" preserveAspectRatio="none" overflow="hidden">`,
  );
  out.push(`<rect x="${box.minX}" y="${box.minZ}" width="${spanX}" height="${spanZ}" fill="#f7f7f2" stroke="#999999" stroke-width="1" vector-effect="non-scaling-stroke"/>`);
  const lines: string[] = [];
  for (let x = Math.ceil(box.minX / step) * step; x <= box.maxX; x += step) {
    lines.push(`<line x1="${x}" y1="${box.minZ}" x2="${x}" y2="${box.maxZ}" vector-effect="non-scaling-stroke"/>`);
  }
  for (let z = Math.ceil(box.minZ / step) * step; z <= box.maxZ; z += step) {
    lines.push(`<line x1="${box.minX}" y1="${z}" x2="${box.maxX}" y2="${z}" vector-effect="non-scaling-stroke"/>`);
  }
  // vector-effect is not inherited: each line carries it, so grid lines stay one pixel wide at any scale.
  out.push(`<g class="grid" stroke="#d5d5cc" stroke-width="1">${lines.join('')}</g>`);

  // Registered cities first, then current and requested outlines on top.
  const order: ShapeStyle[] = ['city', 'current', 'requested'];
  const sorted = [...visible].sort((a, b) => order.indexOf(a.style ?? 'city') - order.indexOf(b.style ?? 'city'));
  const labels: string[] = [];
  const placed: MapPoint[] = [];
  const lineHeight = fontPx * 1.4 * unit;
  const corners = new CornerLabels(box, scale);
  const cornerShapes: MapPoint[][] = [];
  const reviewing = sorted.some((shape) => (shape.style ?? 'city') !== 'city');
  for (const shape of sorted) {
    const style = shape.style ?? 'city';
    const paint = PALETTE[style];
    const points = shape.corners.map((corner) => `${corner.x},${corner.z}`).join(' ');
    const id = shape.id !== undefined ? ` data-city-id="${shape.id}"` : '';
    out.push(
      `<polygon class="outline ${style}"${id} data-name="${escapeXml(shape.name)}" points="${points}" fill="${paint.fill}" fill-opacity="0.55" ` +
        `stroke="${paint.stroke}" stroke-width="2" vector-effect="non-scaling-stroke"${paint.dash ? ` stroke-dasharray="${paint.dash}"` : ''}/>`,
    );
    // Names of overlapping outlines (a region request over the current region) would print on top
    // of each other: move such a label down a line while it collides with another one. Registered
    // cities never overlap, so only the few review outlines are checked (linear in the city count).
    const at = { ...labelPoint(shape.corners) };
    if (style !== 'city') {
      const halfWidth = (shape.name.length * fontPx * 0.6 * unit) / 2;
      for (let tries = 0; tries < 4 && placed.some((other) => Math.abs(other.z - at.z) < lineHeight && Math.abs(other.x - at.x) < halfWidth * 2); tries++) {
        at.z += lineHeight;
      }
      placed.push(at);
    }
    // A neighbour reaching into the view from its edge keeps its whole name in sight (not "Minat").
    clampLabel(at, shape.name.length * fontPx * 0.6 * unit, fontPx * unit, box);
    corners.reserve(at, shape.name.length * fontPx * 0.6, fontPx);
    labels.push(
      `<text class="name" x="${num(at.x)}" y="${num(at.z)}" font-size="${num(fontPx * unit)}" text-anchor="middle" dominant-baseline="middle" ` +
        `fill="${paint.text}" stroke="#ffffff" stroke-width="${num(3 * unit)}" paint-order="stroke">${escapeXml(shape.name)}</text>`,
    );
    if (options.cornerLabels && (!reviewing || style !== 'city')) {
      for (const corner of shape.corners) {
        labels.push(`<circle class="corner" cx="${corner.x}" cy="${corner.z}" r="${num(3 * unit)}" fill="${paint.stroke}"/>`);
      }
      cornerShapes.push(shape.corners);
    }
  }
  // Corner labels last, so they keep clear of every name placed above.
  for (const shapeCorners of cornerShapes) {
    labels.push(...corners.place(shapeCorners));
  }
  out.push(...labels);
  out.push('</svg>');
  out.push('</svg>');
  return out.join('\n');
}

/** Moves a label's centre so that a label of this size (in blocks) stays inside the box. */
function clampLabel(at: MapPoint, width: number, height: number, box: MapBox): void {
  const clamp = (value: number, low: number, high: number): number => (low > high ? (low + high) / 2 : Math.min(Math.max(value, low), high));
  at.x = clamp(at.x, box.minX + width / 2, box.maxX - width / 2);
  at.z = clamp(at.z, box.minZ + height / 2, box.maxZ - height / 2);
}

interface PixelRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const CORNER_FONT_PX = 11;
/** Gap between a corner's dot and its label, in pixels. */
const CORNER_GAP_PX = 5;

/**
 * Places corner labels outside their outline (left corners labelled to the left, top corners
 * above), else at another spot around the corner, and leaves out a label only when every spot
 * would cover one already placed or leave the drawing, so two corners a few blocks apart never
 * print over each other ("(-120, 200)100, 200)").
 * Rectangles are in pixels from the box's top-left corner; text width is estimated.
 */
class CornerLabels {
  private readonly taken: PixelRect[] = [];

  constructor(
    private readonly box: MapBox,
    private readonly scale: number,
  ) {}

  /** Keeps a label centred at `at` (blocks) of the given pixel size clear of corner labels. */
  reserve(at: MapPoint, widthPx: number, heightPx: number): void {
    const x = (at.x - this.box.minX) * this.scale;
    const y = (at.z - this.box.minZ) * this.scale;
    this.taken.push({ left: x - widthPx / 2, right: x + widthPx / 2, top: y - heightPx / 2, bottom: y + heightPx / 2 });
  }

  place(corners: MapPoint[]): string[] {
    const outline = shapeBox(corners);
    const middle = { x: (outline.minX + outline.maxX) / 2, z: (outline.minZ + outline.maxZ) / 2 };
    const unit = 1 / this.scale;
    const viewWidth = (this.box.maxX - this.box.minX) * this.scale;
    const viewHeight = (this.box.maxZ - this.box.minZ) * this.scale;
    const texts: string[] = [];
    for (const corner of corners) {
      const text = `(${corner.x}, ${corner.z})`;
      const width = text.length * CORNER_FONT_PX * 0.6;
      const x = (corner.x - this.box.minX) * this.scale;
      const y = (corner.z - this.box.minZ) * this.scale;
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
        const top = spot.below ? y + CORNER_GAP_PX : y - CORNER_GAP_PX - CORNER_FONT_PX;
        const rect = { left, top, right: left + width, bottom: top + CORNER_FONT_PX };
        const inView = rect.left >= 0 && rect.top >= 0 && rect.right <= viewWidth && rect.bottom <= viewHeight;
        if (!inView || this.taken.some((other) => overlaps(rect, other))) {
          continue;
        }
        this.taken.push(rect);
        const anchor = spot.side < 0 ? 'end' : spot.side > 0 ? 'start' : 'middle';
        const anchorX = spot.side < 0 ? rect.right : spot.side > 0 ? rect.left : x;
        texts.push(
          `<text class="corner-label" x="${num(this.box.minX + anchorX * unit)}" y="${num(this.box.minZ + (rect.bottom - 2) * unit)}" font-size="${num(CORNER_FONT_PX * unit)}" ` +
            `text-anchor="${anchor}" fill="#222222" stroke="#ffffff" stroke-width="${num(3 * unit)}" paint-order="stroke">${text}</text>`,
        );
        break;
      }
    }
    return texts;
  }
}

function overlaps(a: PixelRect, b: PixelRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}
