import { cityFieldsFactory, type NumericCorner, square } from './support/cities';
import { findAll, parseXml, polygonPoints } from './support/svg';
import { expectError, newPlayer, TestApp } from './support/test-app';

const cityFields = cityFieldsFactory({ name: 'Map', kana: 'まっぷ', kanaDigits: 'あいうえおかきくけこ', z: 0 });

interface Feature {
  type: string;
  id: number;
  geometry: { type: string; coordinates: number[][][] };
  properties: { id: number; name: string; nameKana: string; regionName: string | null; count: number; owner: { uuid: string; mcid: string } };
}

interface CityBody {
  id: number;
  name: string;
  nameKana: string;
  count: number;
  corners: Array<{ x: string; z: string }>;
  owner: { uuid: string; mcid: string };
}

/** Maps of the registered cities (docs/console-and-maps.md, Maps): GeoJSON and SVG files, public and cacheable. */
describe('maps (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  let operatorKey: string;
  const operator = () => ({ headers: { 'x-api-key': operatorKey } });

  /** A city registered at once (force) at the given corners; returns its id. */
  async function register(fields: Record<string, unknown> = {}): Promise<number> {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const result = await app.post<{ cityId: number }>('/cities/create', { usertoken: userkey, ...cityFields(), force: true, ...fields }, operator());
    expect(result.status).toBe(201);
    return result.body.cityId;
  }

  async function pending(): Promise<number> {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const result = await app.post<{ cityId: number }>('/cities/create', { usertoken: userkey, ...cityFields() });
    expect(result.status).toBe(201);
    return result.body.cityId;
  }

  const lShape: NumericCorner[] = [
    { id: 1, x: -500, z: -500 },
    { id: 2, x: -500, z: -401 },
    { id: 3, x: -401, z: -401 },
    { id: 4, x: -401, z: -410 },
    { id: 5, x: -490, z: -410 },
    { id: 6, x: -490, z: -500 },
  ];

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator']);
    await register();
    await register();
    // 100×100 bounding box: 100 + 90×10 blocks … computed by the service's own rule below.
    const count = lShapeCount();
    await register({ corners: lShape, count });
  });

  afterAll(async () => {
    await app.stop();
  });

  function lShapeCount(): number {
    // |shoelace area| + perimeter/2 + 1 (docs/api.md, City rules).
    let area = 0;
    let perimeter = 0;
    for (let i = 0; i < lShape.length; i++) {
      const a = lShape[i];
      const b = lShape[(i + 1) % lShape.length];
      area += a.x * b.z - b.x * a.z;
      perimeter += Math.abs(a.x - b.x) + Math.abs(a.z - b.z);
    }
    return Math.abs(area) / 2 + perimeter / 2 + 1;
  }

  async function cities(): Promise<CityBody[]> {
    return (await app.get<{ data: CityBody[] }>('/cities')).body.data;
  }

  describe('GET /maps/cities.geojson', () => {
    it('is a FeatureCollection with one closed Polygon per registered city, matching GET /cities', async () => {
      await pending(); // a pending city is never on the map
      const result = await app.get<{ type: string; features: Feature[] }>('/maps/cities.geojson');
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toMatch(/^application\/geo\+json/);
      expect(result.body.type).toBe('FeatureCollection');
      const list = await cities();
      expect(result.body.features).toHaveLength(list.length);
      for (const [index, city] of list.entries()) {
        const feature = result.body.features[index];
        const ring = city.corners.map((corner) => [Number(corner.x), Number(corner.z)]);
        expect(feature).toEqual({
          type: 'Feature',
          id: city.id,
          geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] },
          properties: { id: city.id, name: city.name, nameKana: city.nameKana, regionName: null, count: city.count, owner: { uuid: city.owner.uuid, mcid: city.owner.mcid } },
        });
      }
    });

    it('is public: CORS for any origin, cross-origin resource policy, cacheable for a minute, with an ETag and 304', async () => {
      const result = await app.get('/maps/cities.geojson', { headers: { origin: 'https://map.example.org' } });
      expect(result.headers.get('access-control-allow-origin')).toBe('*');
      expect(result.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(result.headers.get('cache-control')).toBe('public, max-age=60');
      const etag = result.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await app.get('/maps/cities.geojson', { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    });

    it('changes with the next read after a city is registered or deleted', async () => {
      const before = await app.get('/maps/cities.geojson');
      const id = await register();
      const added = await app.get<{ features: Feature[] }>('/maps/cities.geojson', { headers: { 'if-none-match': before.headers.get('etag')! } });
      expect(added.status).toBe(200);
      expect(added.body.features.map((feature) => feature.id)).toContain(id);
      expect((await app.request('DELETE', `/cities/${id}`, operator())).status).toBe(200);
      const removed = await app.get<{ features: Feature[] }>('/maps/cities.geojson', { headers: { 'if-none-match': added.headers.get('etag')! } });
      expect(removed.status).toBe(200);
      expect(removed.body.features.map((feature) => feature.id)).not.toContain(id);
    });

    it("shows the owner's new game id with the next read after the owner logs in under a new name", async () => {
      const before = await app.get<{ features: Feature[] }>('/maps/cities.geojson');
      const owner = before.body.features[0].properties.owner;
      const mcid = `renamed_${Date.now() % 100000}`;
      const login = await app.post('/game-server/logins', { logins: [{ uuid: owner.uuid, mcid, loggedInAt: new Date().toISOString() }] }, { headers: { 'x-api-key': gameServerKey } });
      expect(login.status).toBe(200);
      const after = await app.get<{ features: Feature[] }>('/maps/cities.geojson', { headers: { 'if-none-match': before.headers.get('etag')! } });
      expect(after.status).toBe(200);
      expect(after.body.features[0].properties.owner).toEqual({ uuid: owner.uuid, mcid });
    });

    it('is served under /v1 too (maps are API routes)', async () => {
      expect((await app.get('/v1/maps/cities.geojson')).status).toBe(200);
    });
  });

  describe('GET /maps/cities.svg', () => {
    it('draws every registered city through its corners, labelled with its name', async () => {
      const result = await app.get('/maps/cities.svg');
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(result.headers.get('access-control-allow-origin')).toBe('*');
      expect(result.headers.get('cache-control')).toBe('public, max-age=60');
      const svg = parseXml(result.text);
      const polygons = findAll(svg, 'polygon');
      const list = await cities();
      expect(polygons.map((polygon) => Number(polygon.attributes['data-city-id']))).toEqual(list.map((city) => city.id));
      for (const city of list) {
        const polygon = polygons.find((candidate) => candidate.attributes['data-city-id'] === String(city.id))!;
        expect(polygonPoints(polygon)).toEqual(city.corners.map((corner) => ({ x: Number(corner.x), z: Number(corner.z) })));
        expect(polygon.attributes['data-name']).toBe(city.name);
      }
      const names = findAll(svg, 'text').filter((text) => text.attributes.class === 'name').map((text) => text.text);
      expect(names.sort()).toEqual(list.map((city) => city.name).sort());
      expect(findAll(svg, 'title')[0].text).toContain('Registered cities');
      const etag = result.headers.get('etag')!;
      expect((await app.get('/maps/cities.svg', { headers: { 'if-none-match': etag } })).status).toBe(304);
    });

    it('with bbox draws only the cities in the box, with the box as the drawing area', async () => {
      const result = await app.get('/maps/cities.svg', { query: { bbox: '-600,-600,-300,-300' } });
      expect(result.status).toBe(200);
      const svg = parseXml(result.text);
      const polygons = findAll(svg, 'polygon');
      expect(polygons).toHaveLength(1);
      expect(polygonPoints(polygons[0])).toEqual(lShape.map(({ x, z }) => ({ x, z })));
      const inner = findAll(svg, 'svg').find((element) => element.attributes.class === 'map')!;
      expect(inner.attributes.viewBox).toBe('-600 -600 300 300');
      const etag = result.headers.get('etag')!;
      expect((await app.get('/maps/cities.svg', { query: { bbox: '-600,-600,-300,-300' }, headers: { 'if-none-match': etag } })).status).toBe(304);
    });

    it.each(['1,2,3', 'a,b,c,d', '0,0,100000,10', '0,0,10,-100000', '1.5,0,2,2', ''])('answers 400 naming bbox for bbox=%j', async (bbox) => {
      const result = expectError(await app.get('/maps/cities.svg', { query: { bbox } }), 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: 'bbox' })]);
      expect(result.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('draws a box again after a change (the cached picture of the box is not served)', async () => {
      const bbox = '4900,4900,5100,5100';
      const before = await app.get('/maps/cities.svg', { query: { bbox } });
      expect(findAll(parseXml(before.text), 'polygon')).toHaveLength(0);
      const id = await register({ corners: square(5000, 5000, 10), count: 100 });
      const after = await app.get('/maps/cities.svg', { query: { bbox }, headers: { 'if-none-match': before.headers.get('etag')! } });
      expect(after.status).toBe(200);
      expect(findAll(parseXml(after.text), 'polygon').map((polygon) => polygon.attributes['data-city-id'])).toEqual([String(id)]);
    });

    it('accepts a box of exactly 100,000 blocks on a side', async () => {
      expect((await app.get('/maps/cities.svg', { query: { bbox: '-50000,-50000,49999,49999' } })).status).toBe(200);
    });

    it('refuses a repeated bbox (400)', async () => {
      expectError(await app.get('/maps/cities.svg?bbox=0,0,1,1&bbox=0,0,2,2'), 400, 'invalid_request');
    });
  });

  describe('GET /cities/{id}/shape.svg', () => {
    it("draws one city's outline with every corner's coordinates", async () => {
      const city = (await cities()).find((candidate) => candidate.corners.length === 6)!;
      const result = await app.get(`/cities/${city.id}/shape.svg`);
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(result.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const svg = parseXml(result.text);
      const polygons = findAll(svg, 'polygon');
      expect(polygons).toHaveLength(1);
      expect(polygonPoints(polygons[0])).toEqual(lShape.map(({ x, z }) => ({ x, z })));
      const labels = findAll(svg, 'text').filter((text) => text.attributes.class === 'corner-label').map((text) => text.text);
      expect(labels).toEqual(lShape.map(({ x, z }) => `(${x}, ${z})`));
      expect(findAll(svg, 'title')[0].text).toContain(city.name);
    });

    it('answers 400 for an id that is not digits and 404 for an unknown or pending city', async () => {
      expectError(await app.get('/cities/abc/shape.svg'), 400, 'invalid_request');
      expectError(await app.get('/cities/999999/shape.svg'), 404, 'not_found');
      const pendingId = await pending();
      expectError(await app.get(`/cities/${pendingId}/shape.svg`), 404, 'not_found');
    });
  });
});
