import { Injectable } from '@nestjs/common';
import { BuildInfo } from '../common/build-info';
import { EncodedJson } from '../common/http/encoded-json';
import { successBody } from '../common/http/envelope.hook';
import { DataTopic, DataVersions } from '../database/data-versions';
import type { CityView } from './city.view';

/** A city view shows its owner's game id and chat id: those changes bump `city-owners`, other player writes do not. */
export const CITY_LIST_TOPICS: readonly DataTopic[] = ['cities', 'city-owners'];

/**
 * The full `GET /cities` response, serialised once per change. Served while the data versions it
 * was built at are unchanged, so every write is visible to the next read, on every instance.
 */
@Injectable()
export class CitiesListCache {
  private cached: { stamp: string; response: EncodedJson } | undefined;
  private building: { stamp: string; response: Promise<EncodedJson> } | undefined;

  constructor(
    private readonly versions: DataVersions,
    private readonly build: BuildInfo,
  ) {}

  async get(load: () => Promise<CityView[]>): Promise<EncodedJson> {
    // The stamp is read before the data: a write racing with the load leaves an older stamp
    // on the entry, and the next read rebuilds.
    const stamp = await this.versions.stamp(CITY_LIST_TOPICS);
    if (this.cached?.stamp === stamp) {
      return this.cached.response;
    }
    if (this.building?.stamp !== stamp) {
      const response = load().then((data) => EncodedJson.of(successBody(200, this.build.version, { data })));
      this.building = { stamp, response };
      response.then(
        (built) => {
          this.cached = { stamp, response: built };
        },
        () => undefined,
      );
      response.finally(() => {
        if (this.building?.response === response) {
          this.building = undefined;
        }
      }).catch(() => undefined);
    }
    return this.building.response;
  }
}
