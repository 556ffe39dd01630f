import { argb, PL3XMAP_LAYER_KEY, pl3xMapLayerFile } from './pl3xmap-layer';
import type { WebMapStyle } from './web-map-style';

const style: WebMapStyle = { label: 'Cities', fill: { r: 47, g: 128, b: 237, a: 0.3 }, line: { r: 27, g: 79, b: 156, a: 1 }, height: 64, cityUrl: 'https://club.example.org/cities/{id}' };
const city = { id: 8, name: 'A&B <x>', nameKana: 'えーびー', count: 100, corners: [{ x: '0', z: '0' }, { x: '0', z: '9' }, { x: '9', z: '9' }, { x: '9', z: '0' }], owner: { uuid: 'u', mcid: 'Kaze' } };

describe('argb', () => {
  it('packs alpha, red, green, blue into the signed 32-bit int Java writes', () => {
    expect(argb({ r: 0, g: 0, b: 0, a: 1 })).toBe(-16777216);
    expect(argb({ r: 255, g: 255, b: 255, a: 1 })).toBe(-1);
    expect(argb({ r: 0x1b, g: 0x4f, b: 0x9c, a: 0 })).toBe(0x1b4f9c);
    // What Pl3xMap's web map reads back: colour and opacity.
    const packed = argb({ r: 47, g: 128, b: 237, a: 0.3 });
    expect('#' + (packed & 0xffffff).toString(16).padStart(6, '0')).toBe('#2f80ed');
    expect(((packed >> 24) & 0xff) / 0xff).toBeCloseTo(0.3, 2);
  });
});

describe('pl3xMapLayerFile', () => {
  it('is a layer with its key, label and settings, one poly marker per city', () => {
    const layer = pl3xMapLayerFile([city, { ...city, id: 9 }], style);
    expect(layer).toMatchObject({ key: PL3XMAP_LAYER_KEY, label: 'Cities', showControls: true, defaultHidden: false });
    expect(layer.updateInterval).toBeGreaterThan(0);
    expect(layer.markers.map((marker) => marker.data.key)).toEqual(['city-8', 'city-9']);
  });

  it('outlines the city with one polyline of whole-block {x, z} points, its escaped name as tooltip', () => {
    const [marker] = pl3xMapLayerFile([city], style).markers;
    expect(marker.type).toBe('poly');
    expect(marker.data.polylines).toEqual([{ key: 'city-8-outline', points: [{ x: 0, z: 0 }, { x: 0, z: 9 }, { x: 9, z: 9 }, { x: 9, z: 0 }] }]);
    expect(marker.options.tooltip.content).toBe('A&#38;B &#60;x&#62;');
    expect(marker.options.stroke).toEqual({ enabled: true, weight: 2, color: argb(style.line) });
    expect(marker.options.fill).toEqual({ enabled: true, color: argb(style.fill) });
    expect(marker.options.popup.content).toContain('href="https://club.example.org/cities/8"');
  });
});
