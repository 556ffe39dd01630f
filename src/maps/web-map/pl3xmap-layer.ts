/**
 * The registered cities as a Pl3xMap custom layer file (docs/web-map.md, Pl3xMap). Pure, no framework imports.
 *
 * The shape is the one Pl3xMap 3 (the Paper/Fabric 1.20–1.21 line, read from granny/Pl3xMap at
 * commit 0324c4a1) loads from `plugins/Pl3xMap/markers/<world>/*.json` when a world loads
 * (core: `CustomLayer.load`/`fromJson`, `Marker.fromJson`, `Polygon`/`Polyline`/`Point.fromJson`,
 * option `Stroke`/`Fill`/`Tooltip`/`Popup`): an object `{key, label, updateInterval, showControls,
 * defaultHidden, priority, zIndex, markers}`, each marker `{type: "poly", data: {key, polylines:
 * [{key, points: [{x, z}]}]}, options: {stroke, fill, tooltip, popup}}`. Points are whole blocks;
 * colours are one ARGB integer (the web map reads `color >> 24 & 0xFF` as the opacity), written
 * as Java writes an int (signed 32-bit), since Gson reads them with `getAsInt`.
 */
import { cityDetailHtml, outline, type Rgba, type WebMapCity, type WebMapStyle } from './web-map-style';
import { escapeXml } from '../map-svg';

/** The layer's key: the file's name in the markers folder and the layer's id in the map's settings. */
export const PL3XMAP_LAYER_KEY = 'community_cities';

export interface Pl3xMapPolygon {
  type: 'poly';
  data: { key: string; polylines: Array<{ key: string; points: Array<{ x: number; z: number }> }> };
  options: {
    stroke: { enabled: boolean; weight: number; color: number };
    fill: { enabled: boolean; color: number };
    tooltip: { content: string };
    popup: { content: string };
  };
}

export interface Pl3xMapLayerFile {
  key: string;
  label: string;
  /** Seconds between the web map's re-reads of the layer (and the server's re-writes). */
  updateInterval: number;
  showControls: boolean;
  defaultHidden: boolean;
  priority: number;
  zIndex: number;
  markers: Pl3xMapPolygon[];
}

/** `{r, g, b, a}` as the signed 32-bit ARGB integer Pl3xMap stores. */
export function argb(color: Rgba): number {
  // `| 0` makes it the signed int Java writes (0xFF000000 is -16777216).
  return ((Math.round(color.a * 255) << 24) | (color.r << 16) | (color.g << 8) | color.b) | 0;
}

function polygon(city: WebMapCity, style: WebMapStyle): Pl3xMapPolygon {
  const key = `city-${city.id}`;
  return {
    type: 'poly',
    data: { key, polylines: [{ key: `${key}-outline`, points: outline(city).map((point) => ({ x: Math.floor(point.x), z: Math.floor(point.z) })) }] },
    options: {
      stroke: { enabled: true, weight: 2, color: argb(style.line) },
      fill: { enabled: true, color: argb(style.fill) },
      // The tooltip and the popup are HTML in Pl3xMap's page: the name is escaped.
      tooltip: { content: escapeXml(city.name) },
      popup: { content: cityDetailHtml(city, style) },
    },
  };
}

/** One polygon per registered city, in the given order, its name as the hover tooltip. */
export function pl3xMapLayerFile(cities: WebMapCity[], style: WebMapStyle): Pl3xMapLayerFile {
  return {
    key: PL3XMAP_LAYER_KEY,
    label: style.label,
    updateInterval: 30,
    showControls: true,
    defaultHidden: false,
    priority: 10,
    zIndex: 10,
    markers: cities.map((city) => polygon(city, style)),
  };
}
