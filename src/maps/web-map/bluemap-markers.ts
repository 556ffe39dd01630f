/**
 * The registered cities as a BlueMap marker file (docs/web-map.md, BlueMap). Pure, no framework imports.
 *
 * The shape is the one BlueMap 5's web app reads from a map's `live/markers.json` (read from
 * BlueMap-Minecraft/BlueMap, common/webapp/src/js/markers: MarkerSet.js `updateFromData`,
 * ShapeMarker.js and ObjectMarker.js `updateFromData`; BlueMap 5.x, webapp commit 0eddf853):
 * an object of marker sets by id, each `{label, toggleable, defaultHidden, sorting, markers}`,
 * `markers` an object of markers by id. A shape marker is `type: "shape"` with `position`
 * `{x, y, z}` (its anchor), `shape` `[{x, z}]` (block coordinates, the web app reads `x` and `z`),
 * `shapeY` (the height it is drawn at), `label` (plain text: the marker menu), `detail` (HTML: the
 * popup), `lineWidth`, `lineColor` and `fillColor` `{r, g, b, a}` (0–255 channels, `a` 0–1).
 */
import { labelPoint } from '../map-svg';
import { cityDetailHtml, outline, type Rgba, type WebMapCity, type WebMapStyle } from './web-map-style';

/** The marker set's id: the key of the file's one entry, and the id the web-app script keeps current. */
export const BLUEMAP_MARKER_SET_ID = 'community-cities';

export interface BlueMapShapeMarker {
  type: 'shape';
  position: { x: number; y: number; z: number };
  label: string;
  detail: string;
  shape: Array<{ x: number; z: number }>;
  shapeY: number;
  depthTest: boolean;
  lineWidth: number;
  lineColor: Rgba;
  fillColor: Rgba;
  listed: boolean;
  sorting: number;
}

export interface BlueMapMarkerSet {
  label: string;
  toggleable: boolean;
  defaultHidden: boolean;
  sorting: number;
  markers: Record<string, BlueMapShapeMarker>;
}

export type BlueMapMarkerFile = Record<string, BlueMapMarkerSet>;

/** The marker id of a city: stable across edits, so BlueMap updates the marker in place. */
export function blueMapMarkerId(cityId: number): string {
  return `city-${cityId}`;
}

function shapeMarker(city: WebMapCity, style: WebMapStyle): BlueMapShapeMarker {
  const shape = outline(city);
  const anchor = shape.length > 0 ? labelPoint(shape) : { x: 0, z: 0 };
  return {
    type: 'shape',
    // The popup opens where the player clicks; the anchor is where the marker list jumps to.
    position: { x: anchor.x, y: style.height, z: anchor.z },
    label: city.name,
    detail: cityDetailHtml(city, style),
    shape,
    shapeY: style.height,
    // Drawn over the terrain rather than hidden by it: a city's outline runs through hills.
    depthTest: false,
    lineWidth: 2,
    lineColor: style.line,
    fillColor: style.fill,
    listed: true,
    sorting: city.id,
  };
}

/** One shape marker per registered city, in the given order (by id, as `GET /cities`). */
export function blueMapMarkerFile(cities: WebMapCity[], style: WebMapStyle): BlueMapMarkerFile {
  const markers: Record<string, BlueMapShapeMarker> = {};
  for (const city of cities) {
    markers[blueMapMarkerId(city.id)] = shapeMarker(city, style);
  }
  return {
    [BLUEMAP_MARKER_SET_ID]: { label: style.label, toggleable: true, defaultHidden: false, sorting: 0, markers },
  };
}
