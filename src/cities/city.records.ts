import type { City } from './city.entity';
import type { CityRequest } from './city-request.entity';
import type { Point } from './geometry';

/*
 * The row shapes the write path works with. The repositories produce them and the view mappers
 * read them, so they live apart from both: imports run repositories -> records and
 * view -> records, never back.
 */

/** A city row as the write path works with it (the entity's fields, read without TypeORM hydration). */
export type CityRecord = Omit<City, 'owner'>;

/** What a new city row holds; the id comes from the database. */
export type NewCity = Omit<CityRecord, 'id'>;

/** A region some city claims (its own, or a pending region request of it), with the city's name. */
export interface RegionClaim {
  cityId: number;
  name: string;
  corners: Point[];
}

/** A request row as the write path works with it (the entity's fields, read without TypeORM hydration). */
export type CityRequestRecord = Omit<CityRequest, 'requester'>;

export type NewCityRequest = Omit<CityRequestRecord, 'id'>;
