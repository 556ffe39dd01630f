import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { cityFieldsFactory, square } from '../support/cities';
import { newPlayer, TestApp } from '../support/test-app';
import { TestBrowser } from './browser';

const cityFields = cityFieldsFactory({ name: 'Browser map', kana: 'ぶらうざ', kanaDigits: 'あいうえおかきくけこ', z: 9500 });

/**
 * A stand-in for BlueMap 5's web app, just the parts the script touches (main.js's
 * `window.bluemap`, MarkerSet.js's `markerSets`/`updateMarkerSetFromData`/`remove` and three.js's
 * `removed` event, MapViewer.js's `bluemapMapChanged`), and BlueMapApp.js's way of loading a
 * `webapp.conf` script: a `<script src>` appended to the body.
 */
function fakeBlueMapPage(scriptUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Fake BlueMap</title></head><body><div id="app"></div>
<script>
  class FakeSet extends EventTarget {
    constructor(id, data) { super(); this.id = id; this.data = data; }
  }
  const root = {
    markerSets: new Map(),
    updateMarkerSetFromData(id, data) {
      const set = this.markerSets.get(id);
      if (set) { set.data = data; } else { this.markerSets.set(id, new FakeSet(id, data)); }
    },
    remove(set) {
      this.markerSets.delete(set.id);
      const event = new Event("removed");
      set.dispatchEvent(event);
    },
    /** NormalMarkerManager's prune: every set the map's own markers.json does not name goes. */
    prune() { for (const set of [...this.markerSets.values()]) this.remove(set); },
  };
  window.bluemap = { mapViewer: { markers: root, map: { data: { id: "world" } } }, events: document.getElementById("app") };
  const script = document.createElement("script");
  script.src = ${JSON.stringify(scriptUrl)};
  document.body.appendChild(script);
</script></body></html>`;
}

type Window = { bluemap: { mapViewer: { markers: { markerSets: Map<string, { data: { markers: Record<string, { label: string }> } }>; prune(): void } } } };
declare const window: Window;
declare function requestAnimationFrame(callback: () => void): number;

/** The BlueMap script in Chromium, on a page of another origin than the service's (docs/web-map.md, BlueMap). */
describe('BlueMap web-app script (browser)', () => {
  let app: TestApp;
  let site: Server;
  let siteUrl: string;
  let browser: TestBrowser;
  let page: Page;
  let cityId: number;

  beforeAll(async () => {
    // CORS_ORIGINS names another site: the map's origin is not in it, and the map files are still readable.
    app = await TestApp.start({ CORS_ORIGINS: 'https://club.example.org' });
    const gameServerKey = await app.createApiKey(['game-server']);
    const operatorKey = await app.createApiKey(['operator']);
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: userkey, ...cityFields({ cityName: 'Kumo <i>town</i>', corners: square(3000, 9500, 20), count: 400 }), force: true }, { headers: { 'x-api-key': operatorKey } });
    expect(created.status).toBe(201);
    cityId = created.body.cityId;
    site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fakeBlueMapPage(`${app.baseUrl}/maps/bluemap/cities.js`));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    // "localhost" and another port: another origin than the service's http://127.0.0.1:<port>.
    siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/`;
    browser = await TestBrowser.launch();
    page = await browser.page(1024, 768);
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await app?.stop();
  });

  it('loads from the service, fetches markers.json across origins and puts the cities into the marker set', async () => {
    const fetched = page.waitForResponse((response) => response.url().endsWith('/maps/bluemap/markers.json'));
    await page.goto(siteUrl);
    const response = await fetched;
    expect(response.status()).toBe(200);
    expect(response.headers()['access-control-allow-origin']).toBe('*');
    await page.waitForFunction((id) => Boolean(window.bluemap.mapViewer.markers.markerSets.get('community-cities')?.data.markers[`city-${id}`]), cityId);
    const label = await page.evaluate((id) => window.bluemap.mapViewer.markers.markerSets.get('community-cities')!.data.markers[`city-${id}`].label, cityId);
    expect(label).toBe('Kumo <i>town</i>');
    expect(browser.problems).toEqual([]);
  });

  it("is back at once after BlueMap's marker manager prunes it", async () => {
    const back = await page.evaluate(async () => {
      const root = window.bluemap.mapViewer.markers;
      root.prune();
      const gone = !root.markerSets.has('community-cities');
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      return { gone, back: root.markerSets.has('community-cities') };
    });
    expect(back).toEqual({ gone: true, back: true });
    expect(browser.problems).toEqual([]);
  });
});
