import { BLUEMAP_MARKER_SET_ID, blueMapMarkerFile } from './bluemap-markers';
import type { WebMapCity, WebMapStyle } from './web-map-style';

const style: WebMapStyle = { label: 'Cities', fill: { r: 47, g: 128, b: 237, a: 0.3 }, line: { r: 27, g: 79, b: 156, a: 1 }, height: 70, cityUrl: null };

function city(id: number, corners: Array<[number, number]>, name = `City ${id}`): WebMapCity {
  return { id, name, nameKana: 'まち', count: 100, corners: corners.map(([x, z]) => ({ x: String(x), z: String(z) })), owner: { uuid: `00000000-0000-4000-8000-00000000000${id}`, mcid: `Owner${id}` } };
}

describe('blueMapMarkerFile', () => {
  it('is one toggleable marker set holding one shape marker per city, keyed city-<id>', () => {
    const file = blueMapMarkerFile([city(3, [[0, 0], [0, 9], [9, 9], [9, 0]]), city(5, [[20, 20], [20, 29], [29, 29], [29, 20]])], style);
    expect(Object.keys(file)).toEqual([BLUEMAP_MARKER_SET_ID]);
    const set = file[BLUEMAP_MARKER_SET_ID];
    expect(set).toMatchObject({ label: 'Cities', toggleable: true, defaultHidden: false });
    expect(Object.keys(set.markers)).toEqual(['city-3', 'city-5']);
  });

  it('draws the outline through the corners in order as {x, z}, at the set height, with the colours and the name', () => {
    const marker = blueMapMarkerFile([city(3, [[-10, 5], [-10, 14], [-1, 14], [-1, 5]], 'Chuo')], style)[BLUEMAP_MARKER_SET_ID].markers['city-3'];
    expect(marker).toMatchObject({
      type: 'shape',
      label: 'Chuo',
      shape: [{ x: -10, z: 5 }, { x: -10, z: 14 }, { x: -1, z: 14 }, { x: -1, z: 5 }],
      shapeY: 70,
      lineColor: style.line,
      fillColor: style.fill,
      lineWidth: 2,
      depthTest: false,
    });
    // Anchored inside the outline, at the same height.
    expect(marker.position).toEqual({ x: -5.5, y: 70, z: 9.5 });
    expect(marker.detail).toContain('<strong>Chuo</strong>');
    expect(marker.detail).toContain('Owner: Owner3');
  });

  it('anchors an L-shaped city inside its outline', () => {
    const marker = blueMapMarkerFile([city(1, [[0, 0], [0, 99], [99, 99], [99, 90], [10, 90], [10, 0]])], style)[BLUEMAP_MARKER_SET_ID].markers['city-1'];
    const { x, z } = marker.position;
    expect((x <= 10 && z <= 99) || (z >= 90 && x <= 99)).toBe(true);
  });

  it('is an empty set when there are no cities (BlueMap then removes the markers it had)', () => {
    expect(blueMapMarkerFile([], style)[BLUEMAP_MARKER_SET_ID].markers).toEqual({});
  });
});
