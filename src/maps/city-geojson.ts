/** Registered cities as a GeoJSON FeatureCollection in block coordinates (docs/console-and-maps.md, Maps). Pure, no framework imports. */

export interface GeoCitySource {
  id: number;
  name: string;
  nameKana: string;
  regionName?: string | null;
  count: number;
  corners: Array<{ x: string | number; z: string | number }>;
  owner: { uuid: string; mcid: string | null };
}

export interface CityFeature {
  type: 'Feature';
  id: number;
  geometry: { type: 'Polygon'; coordinates: Array<Array<[number, number]>> };
  properties: {
    id: number;
    name: string;
    nameKana: string;
    regionName: string | null;
    count: number;
    owner: { uuid: string; mcid: string | null };
  };
}

export interface CityFeatureCollection {
  type: 'FeatureCollection';
  features: CityFeature[];
}

/** One Polygon per city: its corners in order as `[x, z]`, the ring closed by repeating the first corner. */
export function citiesGeoJson(cities: GeoCitySource[]): CityFeatureCollection {
  return {
    type: 'FeatureCollection',
    features: cities.map((city) => {
      const ring = city.corners.map((corner): [number, number] => [Number(corner.x), Number(corner.z)]);
      if (ring.length > 0) {
        ring.push([...ring[0]]);
      }
      return {
        type: 'Feature',
        id: city.id,
        geometry: { type: 'Polygon', coordinates: [ring] },
        properties: {
          id: city.id,
          name: city.name,
          nameKana: city.nameKana,
          regionName: city.regionName ?? null,
          count: city.count,
          owner: { uuid: city.owner.uuid, mcid: city.owner.mcid },
        },
      };
    }),
  };
}
