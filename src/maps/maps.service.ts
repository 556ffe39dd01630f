import { Injectable } from '@nestjs/common';
import { CitiesQueryService } from '../cities/cities-query.service';
import type { LRUCache } from 'lru-cache';
import { boundedCache, type MemoryBounds, stringBytes } from '../common/memory/bounded-cache';
import type { CityView } from '../cities/city.view';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { citiesGeoJson } from './city-geojson';
import { MapFile } from './map-file';
import { boxAround, MapShape, MAX_MAP_SIDE, parseBbox, renderMapSvg } from './map-svg';

const GEOJSON_TYPE = 'application/geo+json';
const SVG_TYPE = 'image/svg+xml; charset=utf-8';

interface Snapshot {
  /** The ETag of the `GET /cities` response the snapshot was built from. */
  listEtag: string;
  cities: CityView[];
  shapes: MapShape[];
  geojson: MapFile;
  /** Pictures drawn from this snapshot, by bbox ('all' without one), built on first request: ~35 ms per 1,000 cities for the full map. */
  svgs: LRUCache<string, MapFile>;
}

/**
 * Pictures kept per snapshot (the full map and the most recent boxes): by count and by bytes
 * (docs/reliability.md, "Lifetime"), since one full map of many cities is megabytes.
 */
export const SVG_CACHE_BOUNDS: MemoryBounds = { maxEntries: 32, maxBytes: 16 * 1024 * 1024 };

/** The pictures of one snapshot, each counted by its body's bytes. */
export function newSvgCache(bounds: MemoryBounds = SVG_CACHE_BOUNDS): LRUCache<string, MapFile> {
  return boundedCache(bounds, (key, file) => stringBytes(key) + file.body.length);
}

function shapeOf(city: Pick<CityView, 'id' | 'name' | 'corners'>): MapShape {
  return { id: city.id, name: city.name, corners: city.corners.map((corner) => ({ x: Number(corner.x), z: Number(corner.z) })) };
}

/**
 * Maps of the registered cities. They are derived from the cached `GET /cities` response, so they
 * are rebuilt exactly when the city list is (same data-version counters), and only then.
 */
@Injectable()
export class MapsService {
  private snapshot: Snapshot | undefined;

  constructor(private readonly cities: CitiesQueryService) {}

  async geojson(): Promise<MapFile> {
    return (await this.current()).geojson;
  }

  /** Every city, or the cities touching `bbox`; drawn once per data change and box. */
  async svg(bbox: string | undefined): Promise<MapFile> {
    const snapshot = await this.current();
    const key = bbox === undefined ? 'all' : `bbox=${bbox}`;
    const cached = snapshot.svgs.get(key);
    if (cached) {
      return cached;
    }
    const svg = bbox === undefined ? this.drawAll(snapshot) : this.drawBox(snapshot, bbox);
    snapshot.svgs.set(key, svg);
    return svg;
  }

  private drawAll(snapshot: Snapshot): MapFile {
    return MapFile.of(renderMapSvg(snapshot.shapes, { title: `Registered cities (${snapshot.cities.length})` }), SVG_TYPE);
  }

  private drawBox(snapshot: Snapshot, bbox: string): MapFile {
    const parsed = parseBbox(bbox);
    if (!parsed.ok) {
      throw ApiError.invalidField('bbox', parsed.reason === 'format' ? 'maps.bboxFormat' : msg('maps.bboxTooLarge', { max: MAX_MAP_SIDE }));
    }
    const { minX, minZ, maxX, maxZ } = parsed.box;
    const title = `Registered cities in x ${minX}…${maxX}, z ${minZ}…${maxZ}`;
    return MapFile.of(renderMapSvg(snapshot.shapes, { box: parsed.box, title }), SVG_TYPE);
  }

  /** One registered city's outline with its corner coordinates (404 as `GET /cities/{id}`). */
  async shape(id: number): Promise<MapFile> {
    const city = await this.cities.findOne({ id });
    const shape = shapeOf(city);
    const svg = renderMapSvg([shape], { box: boxAround([shape], 0.25), title: `${city.name} (city ${city.id})`, cornerLabels: true });
    return MapFile.of(svg, SVG_TYPE);
  }

  private async current(): Promise<Snapshot> {
    const list = await this.cities.listResponse();
    if (this.snapshot?.listEtag === list.etag) {
      return this.snapshot;
    }
    const cities = (JSON.parse(list.body.toString('utf8')) as { data: CityView[] }).data;
    const shapes = cities.map(shapeOf);
    const snapshot: Snapshot = {
      listEtag: list.etag,
      cities,
      shapes,
      geojson: MapFile.of(JSON.stringify(citiesGeoJson(cities)), GEOJSON_TYPE),
      svgs: newSvgCache(),
    };
    this.snapshot = snapshot;
    return snapshot;
  }
}
