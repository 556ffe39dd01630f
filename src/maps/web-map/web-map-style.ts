/**
 * How the cities look on a game server's web map, and what their popups say (docs/web-map.md).
 * Shared by the BlueMap and Pl3xMap builders. Pure, no framework imports.
 */
import { HEX_COLOR_PATTERN } from '../../config/web-map-patterns';
import { escapeXml } from '../map-svg';


export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** Opacity, 0 (transparent) to 1. */
  a: number;
}

export interface WebMapStyle {
  /** The marker set's (layer's) name in the map's menu. */
  label: string;
  fill: Rgba;
  line: Rgba;
  /** The y (height) BlueMap draws the outlines at; Pl3xMap is flat. */
  height: number;
  /** Link to a city's page, `{id}` and `{name}` replaced; null: the popups carry no link. */
  cityUrl: string | null;
}

/** The popup's source: a registered city as `GET /cities` serves it. */
export interface WebMapCity {
  id: number;
  name: string;
  nameKana: string;
  count: number;
  corners: Array<{ x: string | number; z: string | number }>;
  owner: { uuid: string; mcid: string | null };
}

/** `[#]rrggbb[aa]` as 0–255 channels and a 0–1 opacity (opaque without `aa`). Throws on anything else (config is validated first). */
export function parseHexColor(text: string): Rgba {
  if (!HEX_COLOR_PATTERN.test(text)) {
    throw new Error(`not a [#]rrggbb[aa] colour: ${text}`);
  }
  const hex = text.replace(/^#/, '');
  const channel = (index: number): number => parseInt(hex.slice(index * 2, 2 + index * 2), 16);
  // Two decimals are plenty for an opacity and keep the files short and stable.
  const alpha = hex.length === 8 ? Math.round((channel(3) / 255) * 100) / 100 : 1;
  return { r: channel(0), g: channel(1), b: channel(2), a: alpha };
}

/** A city's page address from the template: `{id}` as digits, `{name}` percent-encoded. */
export function cityUrl(template: string, city: Pick<WebMapCity, 'id' | 'name'>): string {
  return template.replaceAll('{id}', String(city.id)).replaceAll('{name}', encodeURIComponent(city.name));
}

/** The corners as numbers, in their stored order (the outline players drew). */
export function outline(city: Pick<WebMapCity, 'corners'>): Array<{ x: number; z: number }> {
  return city.corners.map((corner) => ({ x: Number(corner.x), z: Number(corner.z) }));
}

/**
 * The popup's HTML: name, reading, owner, size and, with a template, a link to the city's page.
 * Every value is escaped: the maps put this into their page as markup, and names are player text.
 */
export function cityDetailHtml(city: WebMapCity, style: Pick<WebMapStyle, 'cityUrl'>): string {
  const owner = city.owner.mcid ?? city.owner.uuid;
  const lines = [
    `<strong>${escapeXml(city.name)}</strong> <span>(${escapeXml(city.nameKana)})</span>`,
    `Owner: ${escapeXml(owner)}`,
    `${city.count.toLocaleString('en-US')} blocks`,
  ];
  if (style.cityUrl !== null) {
    lines.push(`<a href="${escapeXml(cityUrl(style.cityUrl, city))}" target="_blank" rel="noopener">City page</a>`);
  }
  return `<div class="community-city">${lines.join('<br>')}</div>`;
}
