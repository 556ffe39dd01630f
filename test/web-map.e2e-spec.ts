import { Script } from 'node:vm';
import { cityFieldsFactory, square } from './support/cities';
import { newPlayer, TestApp } from './support/test-app';

const cityFields = cityFieldsFactory({ name: 'Web map', kana: 'うぇぶ', kanaDigits: 'あいうえおかきくけこ', z: 9000 });

/**
 * What each map app reads, written down as a small validator: the field names, their types and the
 * coordinate shapes. A file that passes is one the map's own code takes (docs/web-map.md names the
 * versions and the source files read).
 */
type Check = (value: unknown, path: string) => void;

function fail(path: string, what: string, value: unknown): never {
  throw new Error(`${path}: expected ${what}, got ${JSON.stringify(value)}`);
}
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A check from a test of the value and the name of what it expects. */
const check =
  (test: (value: unknown) => boolean, what: string): Check =>
  (value, path) => {
    if (!test(value)) {
      fail(path, what, value);
    }
  };
const str = check((value) => typeof value === 'string', 'a string');
const bool = check((value) => typeof value === 'boolean', 'a boolean');
const num = check((value) => typeof value === 'number' && Number.isFinite(value), 'a number');
const int = check((value) => Number.isInteger(value), 'an integer');
const int32 = check((value) => Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31, 'a signed 32-bit integer');
const literal = (expected: string): Check => check((value) => value === expected, JSON.stringify(expected));
const range = (min: number, max: number): Check => check((value) => typeof value === 'number' && value >= min && value <= max, `a number in ${min}..${max}`);
/** Exactly these keys (an unknown key is a sign of a misread format), each checked. */
const shape = (fields: Record<string, Check>): Check => (value, path) => {
  if (!isObject(value)) {
    fail(path, 'an object', value);
  }
  const object = value;
  expect({ path, keys: Object.keys(object).sort() }).toEqual({ path, keys: Object.keys(fields).sort() });
  for (const [key, field] of Object.entries(fields)) {
    field(object[key], `${path}.${key}`);
  }
};
const arrayOf = (item: Check, minLength = 0): Check => (value, path) => {
  if (!Array.isArray(value) || value.length < minLength) {
    fail(path, `an array of at least ${minLength}`, value);
  }
  (value as unknown[]).forEach((entry, index) => item(entry, `${path}[${index}]`));
};
const recordOf = (item: Check, keyPattern: RegExp): Check => (value, path) => {
  if (!isObject(value)) {
    fail(path, 'an object', value);
  }
  for (const [key, entry] of Object.entries(value)) {
    expect(key).toMatch(keyPattern);
    item(entry, `${path}[${JSON.stringify(key)}]`);
  }
};

/** BlueMap 5 web app: MarkerSet.updateFromData, ShapeMarker/ObjectMarker.updateFromData. */
const blueMapColor = shape({ r: range(0, 255), g: range(0, 255), b: range(0, 255), a: range(0, 1) });
const blueMapShapeMarker = shape({
  type: literal('shape'),
  position: shape({ x: num, y: num, z: num }),
  label: str,
  detail: str,
  shape: arrayOf(shape({ x: num, z: num }), 3),
  shapeY: num,
  depthTest: bool,
  lineWidth: num,
  lineColor: blueMapColor,
  fillColor: blueMapColor,
  listed: bool,
  sorting: num,
});
const blueMapFile = recordOf(
  shape({ label: str, toggleable: bool, defaultHidden: bool, sorting: num, markers: recordOf(blueMapShapeMarker, /^city-\d+$/) }),
  /^[A-Za-z0-9_-]+$/,
);

/** Pl3xMap 3: CustomLayer.fromJson, Marker/Polygon/Polyline/Point.fromJson, Stroke/Fill/Tooltip/Popup. */
const pl3xMapPolygon = shape({
  type: literal('poly'),
  data: shape({ key: str, polylines: arrayOf(shape({ key: str, points: arrayOf(shape({ x: int, z: int }), 3) }), 1) }),
  options: shape({
    stroke: shape({ enabled: bool, weight: int, color: int32 }),
    fill: shape({ enabled: bool, color: int32 }),
    tooltip: shape({ content: str }),
    popup: shape({ content: str }),
  }),
});
const pl3xMapFile = shape({ key: str, label: str, updateInterval: int, showControls: bool, defaultHidden: bool, priority: int, zIndex: int, markers: arrayOf(pl3xMapPolygon) });

interface CityBody {
  id: number;
  name: string;
  corners: Array<{ x: string; z: string }>;
  owner: { uuid: string; mcid: string };
}
type BlueMapBody = Record<string, { label: string; markers: Record<string, { label: string; detail: string; shape: Array<{ x: number; z: number }>; shapeY: number; fillColor: unknown; lineColor: unknown }> }>;
interface Pl3xMapBody {
  label: string;
  markers: Array<{ data: { key: string; polylines: Array<{ points: Array<{ x: number; z: number }> }> }; options: { tooltip: { content: string }; fill: { color: number }; stroke: { color: number }; popup: { content: string } } }>;
}

/** The cities on the game server's web map (docs/web-map.md): BlueMap, its web-app script, Pl3xMap. */
describe('web map (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  let operatorKey: string;
  const operator = () => ({ headers: { 'x-api-key': operatorKey } });

  async function request(fields: Record<string, unknown> = {}, force = false): Promise<number> {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const result = await app.post<{ cityId: number }>('/cities/create', { usertoken: userkey, ...cityFields(), ...(force ? { force: true } : {}), ...fields }, force ? operator() : {});
    expect(result.status).toBe(201);
    return result.body.cityId;
  }

  async function cities(): Promise<CityBody[]> {
    return (await app.get<{ data: CityBody[] }>('/cities')).body.data;
  }

  beforeAll(async () => {
    app = await TestApp.start({ CORS_ORIGINS: 'https://club.example.org' });
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator']);
    await request({}, true);
    await request({ cityName: 'A <b>bold</b> & "quoted" town', corners: square(50_000, 9000, 20), count: 400 }, true);
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('GET /maps/bluemap/markers.json', () => {
    it('is a BlueMap marker file: one set, one shape marker per registered city through its corners', async () => {
      await request(); // pending: never on the map
      const result = await app.get<BlueMapBody>('/maps/bluemap/markers.json');
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toMatch(/^application\/json/);
      blueMapFile(result.body, 'markers.json');
      const set = result.body['community-cities'];
      expect(set.label).toBe('Cities');
      const list = await cities();
      expect(Object.keys(set.markers)).toEqual(list.map((city) => `city-${city.id}`));
      for (const city of list) {
        const marker = set.markers[`city-${city.id}`];
        expect(marker.shape).toEqual(city.corners.map((corner) => ({ x: Number(corner.x), z: Number(corner.z) })));
        expect(marker.label).toBe(city.name);
        expect(marker.detail).toContain(`Owner: ${city.owner.mcid}`);
        expect(marker.shapeY).toBe(64);
      }
      // The popup is HTML in BlueMap's page: player text is escaped.
      const bold = Object.values(set.markers).find((marker) => marker.label.startsWith('A <b>'))!;
      expect(bold.detail).toContain('A &#60;b&#62;bold&#60;/b&#62; &#38; &#34;quoted&#34; town');
      expect(bold.detail).not.toContain('<a ');
    });

    it('is public and cacheable as the other maps: any origin (CORS_ORIGINS naming others), ETag and 304', async () => {
      const result = await app.get('/maps/bluemap/markers.json', { headers: { origin: 'https://map.example.org' } });
      expect(result.headers.get('access-control-allow-origin')).toBe('*');
      expect(result.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(result.headers.get('cache-control')).toBe('public, max-age=60');
      const etag = result.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await app.get('/maps/bluemap/markers.json', { headers: { 'if-none-match': etag, origin: 'https://map.example.org' } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('follows an approval within one poll: approved through the API, the next read has the city and a new ETag', async () => {
      const before = await app.get<BlueMapBody>('/maps/bluemap/markers.json');
      const id = await request({ corners: square(60_000, 9000, 30), count: 900 });
      const pending = await app.get('/maps/bluemap/markers.json', { headers: { 'if-none-match': before.headers.get('etag')! } });
      expect(pending.status).toBe(304);
      expect((await app.request('POST', `/cities/approval/create/${id}`, operator())).status).toBe(200);
      const after = await app.get<BlueMapBody>('/maps/bluemap/markers.json', { headers: { 'if-none-match': before.headers.get('etag')! } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
      blueMapFile(after.body, 'markers.json');
      expect(after.body['community-cities'].markers[`city-${id}`].shape).toEqual(square(60_000, 9000, 30).map(({ x, z }) => ({ x, z })));
    });

    it('is served under /v1 too', async () => {
      expect((await app.get('/v1/maps/bluemap/markers.json')).status).toBe(200);
    });
  });

  describe('GET /maps/bluemap/cities.js', () => {
    it('is a script for the web app, naming the map and reading markers.json next to itself, cacheable with an ETag', async () => {
      const result = await app.get('/maps/bluemap/cities.js', { headers: { origin: 'https://map.example.org' } });
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(result.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(() => new Script(result.text)).not.toThrow();
      expect(result.text).toContain('const MAP_ID = "world";');
      expect(result.text).toContain('const SET_ID = "community-cities";');
      expect(result.text).toContain('new URL("markers.json", self.src)');
      const etag = result.headers.get('etag')!;
      expect((await app.get('/maps/bluemap/cities.js', { headers: { 'if-none-match': etag } })).status).toBe(304);
      expect((await app.get('/v1/maps/bluemap/cities.js')).status).toBe(200);
    });
  });

  describe('GET /maps/pl3xmap/cities.json', () => {
    it('is a Pl3xMap layer file: one polygon per registered city, its name in the tooltip', async () => {
      const result = await app.get<Pl3xMapBody>('/maps/pl3xmap/cities.json');
      expect(result.status).toBe(200);
      expect(result.headers.get('content-type')).toMatch(/^application\/json/);
      pl3xMapFile(result.body, 'cities.json');
      const list = await cities();
      expect(result.body.markers.map((marker) => marker.data.key)).toEqual(list.map((city) => `city-${city.id}`));
      for (const [index, city] of list.entries()) {
        const marker = result.body.markers[index];
        expect(marker.data.polylines[0].points).toEqual(city.corners.map((corner) => ({ x: Number(corner.x), z: Number(corner.z) })));
        expect(marker.options.tooltip.content).toBe(city.name.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`));
      }
    });

    it('follows an approval with the next read (new ETag), and answers 304 while nothing changed', async () => {
      const before = await app.get('/maps/pl3xmap/cities.json');
      const etag = before.headers.get('etag')!;
      expect((await app.get('/maps/pl3xmap/cities.json', { headers: { 'if-none-match': etag } })).status).toBe(304);
      const id = await request({ corners: square(70_000, 9000, 10), count: 100 });
      expect((await app.request('POST', `/cities/approval/create/${id}`, operator())).status).toBe(200);
      const after = await app.get<Pl3xMapBody>('/maps/pl3xmap/cities.json', { headers: { 'if-none-match': etag } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect(after.body.markers.map((marker) => marker.data.key)).toContain(`city-${id}`);
      expect(after.headers.get('access-control-allow-origin')).toBe('*');
    });
  });

  describe('settings', () => {
    it('applies the label, colours, height, map id and city link template of the configuration', async () => {
      const styled = await TestApp.start(
        {
          WEB_MAP_LABEL: 'Towns',
          WEB_MAP_FILL_COLOR: 'ff000080',
          WEB_MAP_LINE_COLOR: '#00ff00',
          WEB_MAP_MARKER_HEIGHT: '-20',
          WEB_MAP_BLUEMAP_MAP_ID: 'survival_2',
          WEB_MAP_CITY_URL: 'https://club.example.org/cities/{id}?name={name}',
        },
        { database: app.database, captcha: app.captcha },
      );
      try {
        const blueMap = await styled.get<BlueMapBody>('/maps/bluemap/markers.json');
        blueMapFile(blueMap.body, 'markers.json');
        const set = blueMap.body['community-cities'];
        expect(set.label).toBe('Towns');
        const [id, marker] = Object.entries(set.markers)[0];
        expect(marker).toMatchObject({ shapeY: -20, fillColor: { r: 255, g: 0, b: 0, a: 0.5 }, lineColor: { r: 0, g: 255, b: 0, a: 1 } });
        const cityId = id.replace('city-', '');
        expect(marker.detail).toContain(`<a href="https://club.example.org/cities/${cityId}?name=${encodeURIComponent(marker.label)}" target="_blank" rel="noopener">`);

        const pl3xMap = await styled.get<Pl3xMapBody>('/maps/pl3xmap/cities.json');
        pl3xMapFile(pl3xMap.body, 'cities.json');
        expect(pl3xMap.body.label).toBe('Towns');
        // ARGB: 0x80ff0000 and 0xff00ff00 as Java's signed ints.
        expect(pl3xMap.body.markers[0].options.fill.color).toBe(0x80ff0000 | 0);
        expect(pl3xMap.body.markers[0].options.stroke.color).toBe(0xff00ff00 | 0);
        expect(pl3xMap.body.markers[0].options.popup.content).toContain('https://club.example.org/cities/');

        const script = await styled.get('/maps/bluemap/cities.js');
        expect(script.text).toContain('const MAP_ID = "survival_2";');
        // Not the default file's ETag: a cache holding the old script revalidates to the new one.
        expect(script.headers.get('etag')).not.toBe((await app.get('/maps/bluemap/cities.js')).headers.get('etag'));
      } finally {
        await styled.stop({ keepDatabase: true, keepCaptcha: true });
      }
    });
  });
});
