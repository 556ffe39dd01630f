import { nameKey } from './city-name';
import type { CityRecord } from './city.records';
import type { RequestedChanges } from './city-request.entity';
import { blockCount, boundingBox } from './geometry';

/** Applies a region or update request's changes to the city record (not yet saved). */
export function applyChanges(city: CityRecord, type: 'region' | 'update', changes: RequestedChanges, now: Date): void {
  if (type === 'region' && changes.corners) {
    city.corners = changes.corners;
    city.blockCount = changes.count ?? blockCount(changes.corners);
    city.reason = changes.reason ?? null;
    Object.assign(city, boundingBox(changes.corners));
  }
  if (type === 'update') {
    if (changes.cityName !== undefined) {
      city.name = changes.cityName;
      city.nameKey = nameKey(changes.cityName);
    }
    if (changes.cityNameKana !== undefined) {
      city.nameKana = changes.cityNameKana;
      city.kanaKey = nameKey(changes.cityNameKana);
    }
    if (changes.summary !== undefined) {
      city.summary = changes.summary === '' ? null : changes.summary;
    }
    if (changes.origin !== undefined) {
      city.origin = changes.origin === '' ? null : changes.origin;
    }
    if (changes.regionName !== undefined) {
      city.regionName = changes.regionName === '' ? null : changes.regionName;
      city.regionKey = city.regionName;
    }
  }
  if (changes.remarks !== undefined) {
    city.remarks = changes.remarks;
  }
  city.updatedAt = now;
}
