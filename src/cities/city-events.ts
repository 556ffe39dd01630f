import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import { EventsService } from '../events/events.service';
import { CitiesRepository } from './cities.repository';
import type { CityRecord } from './city.records';
import { CityRequestsRepository } from './city-requests.repository';
import { cornersView, CityView } from './city.view';

/**
 * The events of the cities workflow (docs/events-and-webhooks.md, Event types), recorded inside the transaction of the change
 * (after its writes, so the objects are read as they now stand and the event lock is held briefly).
 * `data` carries the request and city objects as the API shows them.
 */
@Injectable()
export class CityEvents {
  constructor(
    private readonly events: EventsService,
    private readonly cities: CitiesRepository,
    private readonly requests: CityRequestsRepository,
  ) {}

  /** A request was filed; `requested` is the city as the request would make it (defaults to the city as stored). */
  async created(tx: Transaction, requestId: number, cityId: number, requested?: CityRecord): Promise<void> {
    const city = await this.cities.getViewIn(tx, cityId);
    await this.events.record(tx, 'city.request.created', {
      request: await this.requests.getViewIn(tx, requestId),
      city: city && requested ? projected(city, requested) : (city ?? null),
    });
  }

  /** A request was approved: the city after it. */
  async approved(tx: Transaction, requestId: number, cityId: number): Promise<void> {
    await this.events.record(tx, 'city.request.approved', { request: await this.requests.getViewIn(tx, requestId), city: (await this.cities.getViewIn(tx, cityId)) ?? null });
  }

  /** A request was rejected (by a decision, a withdrawal or a delete); `city` is null for a rejected create. */
  async rejected(tx: Transaction, requestId: number, city: CityView | null): Promise<void> {
    await this.events.record(tx, 'city.request.rejected', { request: await this.requests.getViewIn(tx, requestId), city });
  }

  /** A club admin's direct edit: the city after it. */
  async changed(tx: Transaction, cityId: number): Promise<void> {
    await this.events.record(tx, 'city.changed', { request: null, city: (await this.cities.getViewIn(tx, cityId)) ?? null });
  }

  /** A city was deleted: `city` as it was (read before the delete with `view`). */
  async deleted(tx: Transaction, city: CityView): Promise<void> {
    await this.events.record(tx, 'city.deleted', { request: null, city });
  }

  /** The city object as the transaction sees it now. */
  view(tx: Transaction, cityId: number): Promise<CityView | undefined> {
    return this.cities.getViewIn(tx, cityId);
  }
}

/** The stored city with the fields a request would change taken from `requested` (a record with the changes applied). */
function projected(city: CityView, requested: CityRecord): CityView {
  return {
    ...city,
    name: requested.name,
    nameKana: requested.nameKana,
    summary: requested.summary,
    origin: requested.origin,
    regionName: requested.regionName,
    corners: cornersView(requested.corners),
    count: requested.blockCount,
    reason: requested.reason,
    remarks: requested.remarks,
  };
}
