import fc from 'fast-check';
import { findAll, parseXml, polygonPoints } from '../../test/support/svg';
import { boxAround, escapeXml, estimateTextWidth, gridStep, labelPoint, MAX_MAP_SIDE, parseBbox, renderMapSvg } from './map-svg';

const square = (x: number, z: number, size: number) => [
  { x, z },
  { x, z: z + size - 1 },
  { x: x + size - 1, z: z + size - 1 },
  { x: x + size - 1, z },
];

describe('renderMapSvg', () => {
  it('draws each outline through its corners, in block coordinates, labelled with its name', () => {
    const cities = [
      { id: 1, name: 'Chuo', corners: square(0, 0, 10) },
      { id: 2, name: 'Minato', corners: square(20, -40, 30) },
    ];
    const svg = parseXml(renderMapSvg(cities, { title: 'Cities' }));
    const polygons = findAll(svg, 'polygon');
    expect(polygons.map((polygon) => polygon.attributes['data-city-id'])).toEqual(['1', '2']);
    expect(polygonPoints(polygons[0])).toEqual(cities[0].corners);
    expect(polygonPoints(polygons[1])).toEqual(cities[1].corners);
    const names = findAll(svg, 'text').filter((text) => text.attributes.class === 'name');
    expect(names.map((text) => text.text)).toEqual(['Chuo', 'Minato']);
  });

  it('is north up: the inner viewBox runs from the smallest x and z, z growing downward', () => {
    const svg = parseXml(renderMapSvg([{ name: 'A', corners: square(100, 200, 50) }], { title: 't', box: { minX: 0, minZ: 100, maxX: 400, maxZ: 300 } }));
    const inner = findAll(svg, 'svg').find((element) => element.attributes.class === 'map')!;
    expect(inner.attributes.viewBox).toBe('0 100 400 200');
    // Width twice the height: the aspect of the box is kept.
    expect(Number(inner.attributes.width)).toBe(2 * Number(inner.attributes.height));
    // z tick labels go down the page as z grows.
    const zTicks = findAll(svg, 'text').filter((text) => text.attributes.class === 'tick-z');
    const ys = zTicks.map((text) => Number(text.attributes.y));
    const values = zTicks.map((text) => Number(text.text));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    expect(values[0]).toBe(100);
  });

  it('labels both axes with grid values at a round step', () => {
    const svg = parseXml(renderMapSvg([], { title: 't', box: { minX: -1000, minZ: -1000, maxX: 1000, maxZ: 1000 } }));
    const xTicks = findAll(svg, 'text').filter((text) => text.attributes.class === 'tick-x').map((text) => Number(text.text));
    expect(xTicks).toEqual([-1000, -500, 0, 500, 1000]);
    expect(findAll(svg, 'line').length).toBe(10);
    const texts = findAll(svg, 'text').map((text) => text.text);
    expect(texts).toEqual(expect.arrayContaining(['x → (east)', 'z ↓ (south)', 'N ↑']));
  });

  it('leaves out shapes outside the box', () => {
    const svg = parseXml(
      renderMapSvg(
        [
          { id: 1, name: 'In', corners: square(0, 0, 10) },
          { id: 2, name: 'Out', corners: square(500, 500, 10) },
        ],
        { title: 't', box: { minX: -20, minZ: -20, maxX: 20, maxZ: 20 } },
      ),
    );
    expect(findAll(svg, 'polygon').map((polygon) => polygon.attributes['data-name'])).toEqual(['In']);
  });

  it('escapes names and titles (no markup injection)', () => {
    const text = renderMapSvg([{ name: '<script>&"x"', corners: square(0, 0, 10) }], { title: 'a<b>&c' });
    const svg = parseXml(text);
    expect(text).not.toContain('<script>');
    expect(findAll(svg, 'title')[0].text).toBe('a<b>&c');
    expect(findAll(svg, 'polygon')[0].attributes['data-name']).toBe('<script>&"x"');
  });

  it('drops what XML 1.0 forbids from names already stored (U+FFFE, U+FFFF, lone surrogates, controls)', () => {
    const name = 'A\uFFFEB\uFFFFC\uD800D\uDFFFE\u0001F\u001BG\u{1F600}';
    const svg = parseXml(renderMapSvg([{ name, corners: square(0, 0, 10) }], { title: `map of ${name}` }));
    expect(findAll(svg, 'polygon')[0].attributes['data-name']).toBe('ABCDEFG\u{1F600}');
    expect(findAll(svg, 'title')[0].text).toBe('map of ABCDEFG\u{1F600}');
  });

  it('parses as XML whatever the strings it is given (names, title, title id, captions)', () => {
    // Full Unicode, lone surrogates and the characters XML forbids included.
    const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 24 }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 24 }));
    fc.assert(
      fc.property(fc.array(anyText, { minLength: 1, maxLength: 3 }), anyText, anyText, fc.tuple(anyText, anyText, anyText), fc.boolean(), (names, title, titleId, [x, z, north], cornerLabels) => {
        const shapes = names.map((name, index) => ({ name, corners: square(index * 20, 0, 10), style: 'city' as const, id: index + 1 }));
        const text = renderMapSvg(shapes, { title, titleId, captions: { x, z, north }, cornerLabels });
        const svg = parseXml(text);
        expect(findAll(svg, 'polygon').map((polygon) => polygon.attributes['data-name'])).toEqual(names.map((name) => name.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')));
      }),
      { numRuns: 150 },
    );
    expect(escapeXml('\uFFFF')).toBe('');
  });

  it('draws requested and current outlines above registered cities, and corner labels on request', () => {
    const svg = parseXml(
      renderMapSvg(
        [
          { name: 'Requested', corners: square(0, 0, 20), style: 'requested' },
          { name: 'Neighbour', corners: square(30, 0, 10) },
          { name: 'Current', corners: square(0, 0, 10), style: 'current' },
        ],
        { title: 't', cornerLabels: true },
      ),
    );
    expect(findAll(svg, 'polygon').map((polygon) => polygon.attributes.class)).toEqual(['outline city', 'outline current', 'outline requested']);
    const labels = findAll(svg, 'text').filter((text) => text.attributes.class === 'corner-label').map((text) => text.text);
    expect(labels).toContain('(19, 19)');
    // The cities around are context: their corners are not labelled on a review map.
    expect(labels).not.toContain('(39, 0)');
  });

  it("labels a single city's corners outside the outline, left corners to the left", () => {
    const svg = parseXml(renderMapSvg([{ name: 'A', corners: square(0, 0, 10) }], { title: 't', cornerLabels: true }));
    const labels = findAll(svg, 'text').filter((text) => text.attributes.class === 'corner-label');
    expect(labels.map((text) => text.text)).toEqual(['(0, 0)', '(0, 9)', '(9, 9)', '(9, 0)']);
    const byText = new Map(labels.map((text) => [text.text, text.attributes]));
    expect(byText.get('(0, 0)')).toMatchObject({ 'text-anchor': 'end' });
    expect(Number(byText.get('(0, 0)')!.x)).toBeLessThan(0);
    expect(byText.get('(9, 9)')).toMatchObject({ 'text-anchor': 'start' });
    expect(Number(byText.get('(9, 9)')!.x)).toBeGreaterThan(9);
    expect(Number(byText.get('(9, 9)')!.y)).toBeGreaterThan(9);
  });

  it('never prints two corner labels over each other, however close the corners are drawn', () => {
    // A 10-block request beside the current outline, on a map 600 blocks wide: its corners are a few pixels apart.
    const shapes = [
      { name: 'Current', corners: square(-120, 200, 21), style: 'current' as const },
      { name: 'Requested', corners: square(-120, 200, 30), style: 'requested' as const },
      { name: 'Far', corners: square(400, 0, 10) },
    ];
    const size = 400;
    const box = { minX: -200, minZ: -100, maxX: 420, maxZ: 520 };
    const svg = parseXml(renderMapSvg(shapes, { title: 't', cornerLabels: true, size, box }));
    const scale = size / (box.maxX - box.minX);
    const labels = findAll(svg, 'text').filter((text) => text.attributes.class === 'corner-label' || text.attributes.class === 'name');
    // Each label's extent in pixels, from its anchor and an upper bound of its glyph widths.
    const rects = labels.map((text) => {
      const fontPx = Number(text.attributes['font-size']) * scale;
      const width = text.text.length * fontPx * 0.6;
      const x = (Number(text.attributes.x) - box.minX) * scale;
      const y = (Number(text.attributes.y) - box.minZ) * scale;
      const anchor = text.attributes['text-anchor'] ?? 'start';
      const left = anchor === 'end' ? x - width : anchor === 'middle' ? x - width / 2 : x;
      const top = text.attributes['dominant-baseline'] === 'middle' ? y - fontPx / 2 : y - fontPx + 2;
      return { text: text.text, left, right: left + width, top, bottom: top + fontPx };
    });
    expect(rects.filter((rect) => rect.text.startsWith('(')).length).toBeGreaterThan(0);
    for (const [i, a] of rects.entries()) {
      for (const b of rects.slice(i + 1)) {
        const overlap = a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        expect(overlap ? `${a.text} covers ${b.text}` : '').toBe('');
      }
    }
  });

  it("keeps a neighbour's name inside the view when the neighbour reaches in from the edge: whole, or shortened with the whole in its tooltip", () => {
    const box = { minX: 0, minZ: 0, maxX: 100, maxZ: 100 };
    // Most of the neighbour lies to the right of the view: its centre (x 115) is outside it.
    const svg = parseXml(renderMapSvg([{ name: 'Minato', corners: square(90, 40, 50) }], { title: 't', box, size: 300 }));
    const name = findAll(svg, 'text').find((text) => text.attributes.class === 'name')!;
    const width = estimateTextWidth(name.text, 13) / 3;
    expect(Number(name.attributes.x) + width / 2).toBeLessThanOrEqual(box.maxX);
    expect(Number(name.attributes.x) - width / 2).toBeGreaterThanOrEqual(box.minX);
    // Not cut mid-word without saying so ("Minat"): a shortened name ends with "…", and the outline names it whole.
    if (name.text !== 'Minato') {
      expect(name.text).toMatch(/^Mi.*…$/);
      expect(findAll(findAll(svg, 'polygon')[0], 'title')[0].text).toBe('Minato');
    }
  });

  /** Every text's box in outer pixels (from the renderer's own width estimate and the fonts' line extents). */
  function textBoxes(text: string): Array<{ text: string; kind: string; left: number; right: number; top: number; bottom: number }> {
    const svg = parseXml(text);
    const inner = findAll(svg, 'svg').find((element) => element.attributes.class === 'map')!;
    const [minX, minZ, spanX] = inner.attributes.viewBox.split(' ').map(Number);
    const scale = Number(inner.attributes.width) / spanX;
    const offset = { x: Number(inner.attributes.x), y: Number(inner.attributes.y) };
    return findAll(svg, 'text').map((element) => {
      const innerText = element.attributes.class === 'name' || element.attributes.class === 'corner-label';
      const fontPx = innerText ? Number(element.attributes['font-size']) * scale : 13;
      const x = innerText ? offset.x + (Number(element.attributes.x) - minX) * scale : Number(element.attributes.x);
      const y = innerText ? offset.y + (Number(element.attributes.y) - minZ) * scale : Number(element.attributes.y);
      const width = estimateTextWidth(element.text, fontPx, element.attributes['font-weight'] === 'bold');
      const anchor = element.attributes['text-anchor'] ?? 'start';
      const left = anchor === 'end' ? x - width : anchor === 'middle' ? x - width / 2 : x;
      return { text: element.text, kind: element.attributes.class ?? 'caption', left, right: left + width, top: y - 0.93 * fontPx, bottom: y + 0.24 * fontPx };
    });
  }

  function expectNoOverlap(boxes: ReturnType<typeof textBoxes>): void {
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const overlap = a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        expect(overlap ? `${a.text} covers ${b.text}` : '').toBe('');
      }
    }
  }

  it('thins the ticks until their values have room, at a phone width', () => {
    const svg = renderMapSvg([{ name: 'Far east', corners: square(2200, 0, 600) }], { title: 't', size: 200, box: { minX: 2150, minZ: -50, maxX: 2850, maxZ: 650 } });
    const boxes = textBoxes(svg);
    const xTicks = boxes.filter((entry) => entry.kind === 'tick-x');
    expect(xTicks.length).toBeGreaterThanOrEqual(2);
    expectNoOverlap(boxes);
  });

  it('labels a corner two outlines share once, and keeps "(now)" and "(requested)" apart', () => {
    const svg = parseXml(
      renderMapSvg(
        [
          { name: 'Minato (now)', corners: square(-60, -20, 30), style: 'current' },
          { name: 'Minato (requested)', corners: square(-60, -20, 45), style: 'requested' },
        ],
        { title: 't', cornerLabels: true, size: 540 },
      ),
    );
    const corners = findAll(svg, 'text').filter((text) => text.attributes.class === 'corner-label').map((text) => text.text);
    expect(corners.filter((text) => text === '(-60, -20)')).toHaveLength(1);
    expect(new Set(corners).size).toBe(corners.length);
    expectNoOverlap(textBoxes(renderMapSvg([
      { name: 'Minato (now)', corners: square(-60, -20, 30), style: 'current' },
      { name: 'Minato (requested)', corners: square(-60, -20, 45), style: 'requested' },
    ], { title: 't', cornerLabels: true, size: 540 })));
  });

  it('puts a name too long for its outline beside it or shortens it, the whole name in the tooltip', () => {
    const long = 'Shin-Yokohama Riverside Garden Terrace';
    const svg = parseXml(renderMapSvg([{ name: long, corners: square(0, 0, 10) }, { name: 'B', corners: square(12, 0, 10) }], { title: 't', size: 120, box: { minX: -4, minZ: -4, maxX: 26, maxZ: 14 } }));
    const name = findAll(svg, 'text').find((text) => text.attributes['data-name'] === long);
    const polygon = findAll(svg, 'polygon').find((element) => element.attributes['data-name'] === long)!;
    // Either not drawn whole (shortened with "…", or left out) with the outline's tooltip, or drawn whole outside the outline.
    if (!name || name.text !== long) {
      expect(findAll(polygon, 'title')[0]?.text).toBe(long);
      if (name) {
        expect(name.text.endsWith('…')).toBe(true);
      }
    }
    expectNoOverlap(textBoxes(renderMapSvg([{ name: long, corners: square(0, 0, 10) }, { name: 'B', corners: square(12, 0, 10) }], { title: 't', size: 120, box: { minX: -4, minZ: -4, maxX: 26, maxZ: 14 } })));
  });

  it('never overlaps or clips any text, whatever the outlines and the size', () => {
    const shape = fc.record({
      name: fc.stringMatching(/^[A-Za-z ()-]{1,24}$/),
      x: fc.integer({ min: -300, max: 300 }),
      z: fc.integer({ min: -300, max: 300 }),
      side: fc.integer({ min: 2, max: 200 }),
      style: fc.constantFrom('city' as const, 'current' as const, 'requested' as const),
    });
    fc.assert(
      fc.property(fc.array(shape, { minLength: 1, maxLength: 8 }), fc.integer({ min: 200, max: 900 }), fc.boolean(), (shapes, size, cornerLabels) => {
        const text = renderMapSvg(
          shapes.map((entry) => ({ name: entry.name, corners: square(entry.x, entry.z, entry.side), style: entry.style })),
          { title: 't', size, cornerLabels },
        );
        const boxes = textBoxes(text);
        const outer = findAll(parseXml(text), 'svg')[0];
        const width = Number(outer.attributes.width);
        const height = Number(outer.attributes.height);
        for (const entry of boxes) {
          expect(entry.left).toBeGreaterThanOrEqual(-0.5);
          expect(entry.right).toBeLessThanOrEqual(width + 0.5);
          expect(entry.top).toBeGreaterThanOrEqual(-0.5);
          expect(entry.bottom).toBeLessThanOrEqual(height + 0.5);
        }
        expectNoOverlap(boxes);
      }),
      { numRuns: 150 },
    );
  });

  it('uses no style attributes and no scripts (a strict CSP can inline it)', () => {
    const text = renderMapSvg([{ name: 'A', corners: square(0, 0, 10) }], { title: 't', cornerLabels: true });
    expect(text).not.toMatch(/\sstyle=|<script|\son\w+=/);
  });
});

describe('labelPoint', () => {
  it('is inside an L-shaped outline whose centroid is outside', () => {
    const l = [
      { x: 0, z: 0 },
      { x: 0, z: 100 },
      { x: 100, z: 100 },
      { x: 100, z: 90 },
      { x: 10, z: 90 },
      { x: 10, z: 0 },
    ];
    const point = labelPoint(l);
    const insideL = (point.x >= 0 && point.x <= 10 && point.z >= 0 && point.z <= 100) || (point.z >= 90 && point.z <= 100 && point.x >= 0 && point.x <= 100);
    expect(insideL).toBe(true);
  });
});

describe('parseBbox', () => {
  it('accepts four integers in any corner order', () => {
    expect(parseBbox('10,-5,-10,5')).toEqual({ ok: true, box: { minX: -10, minZ: -5, maxX: 10, maxZ: 5 } });
  });

  it.each(['', '1,2,3', '1,2,3,4,5', '1,2,3,x', '1.5,2,3,4', '1,,3,4'])('refuses %j', (text) => {
    expect(parseBbox(text).ok).toBe(false);
  });

  it(`refuses a side longer than ${MAX_MAP_SIDE} blocks and accepts exactly that`, () => {
    expect(parseBbox(`0,0,${MAX_MAP_SIDE - 1},10`).ok).toBe(true);
    expect(parseBbox(`0,0,${MAX_MAP_SIDE},10`).ok).toBe(false);
    expect(parseBbox(`0,0,10,${MAX_MAP_SIDE}`).ok).toBe(false);
  });
});

describe('gridStep and boxAround', () => {
  it('picks 1, 2 or 5 times a power of ten', () => {
    expect(gridStep(2000)).toBe(500);
    expect(gridStep(100)).toBe(20);
    expect(gridStep(3)).toBe(1);
  });

  it('pads the shapes by at least 8 blocks', () => {
    expect(boxAround([{ corners: square(0, 0, 10) }])).toEqual({ minX: -8, minZ: -8, maxX: 17, maxZ: 17 });
  });
});
