import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { CitiesQueryService } from '../../cities/cities-query.service';
import type { CityView } from '../../cities/city.view';
import { MapFile } from '../map-file';
import { BLUEMAP_MARKER_SET_ID, blueMapMarkerFile } from './bluemap-markers';
import { blueMapScript } from './bluemap-script';
import { pl3xMapLayerFile } from './pl3xmap-layer';
import { parseHexColor, type WebMapStyle } from './web-map-style';

const JSON_TYPE = 'application/json; charset=utf-8';
const SCRIPT_TYPE = 'text/javascript; charset=utf-8';

/** How often the BlueMap script reads markers.json: an approval is on the map within this (docs/web-map.md). */
export const BLUEMAP_POLL_SECONDS = 30;

interface Snapshot {
  /** The ETag of the `GET /cities` response the files were built from. */
  listEtag: string;
  blueMap: MapFile;
  pl3xMap: MapFile;
}

/**
 * The cities as the game server's web maps read them (docs/web-map.md). Like the other map files,
 * they are built from the cached `GET /cities` answer and rebuilt exactly when it is.
 */
@Injectable()
export class WebMapService {
  private readonly style: WebMapStyle;
  private readonly script: MapFile;
  private snapshot: Snapshot | undefined;

  constructor(
    private readonly cities: CitiesQueryService,
    config: AppConfig,
  ) {
    this.style = {
      label: config.WEB_MAP_LABEL,
      fill: parseHexColor(config.WEB_MAP_FILL_COLOR),
      line: parseHexColor(config.WEB_MAP_LINE_COLOR),
      height: config.WEB_MAP_MARKER_HEIGHT,
      cityUrl: config.WEB_MAP_CITY_URL ?? null,
    };
    this.script = MapFile.of(blueMapScript({ markerSetId: BLUEMAP_MARKER_SET_ID, mapId: config.WEB_MAP_BLUEMAP_MAP_ID, pollSeconds: BLUEMAP_POLL_SECONDS }), SCRIPT_TYPE);
  }

  async blueMapMarkers(): Promise<MapFile> {
    return (await this.current()).blueMap;
  }

  blueMapScript(): MapFile {
    return this.script;
  }

  async pl3xMapLayer(): Promise<MapFile> {
    return (await this.current()).pl3xMap;
  }

  private async current(): Promise<Snapshot> {
    const list = await this.cities.listResponse();
    if (this.snapshot?.listEtag === list.etag) {
      return this.snapshot;
    }
    const cities = (JSON.parse(list.body.toString('utf8')) as { data: CityView[] }).data;
    const snapshot: Snapshot = {
      listEtag: list.etag,
      blueMap: MapFile.of(JSON.stringify(blueMapMarkerFile(cities, this.style)), JSON_TYPE),
      pl3xMap: MapFile.of(JSON.stringify(pl3xMapLayerFile(cities, this.style)), JSON_TYPE),
    };
    this.snapshot = snapshot;
    return snapshot;
  }
}
