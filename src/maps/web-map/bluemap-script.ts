/**
 * The script BlueMap's web app loads (one line in its `webapp.conf`: `scripts: [...]`) to show the
 * registered cities and keep them current (docs/web-map.md, BlueMap). Pure, no framework imports.
 *
 * Written against BlueMap 5's web app (BlueMap-Minecraft/BlueMap, common/webapp/src: main.js
 * sets `window.bluemap` (the BlueMapApp) and `window.BlueMap`; BlueMapApp.js loads the `scripts`
 * after the maps; MapViewer.js fires `bluemapMapChanged` on `bluemap.events`; MarkerSet.js offers
 * `updateMarkerSetFromData(id, data)`, `markerSets` and `remove`).
 *
 * One thing shapes the script: BlueMap's own marker manager (NormalMarkerManager.js) re-reads the
 * map's `live/markers.json` every 10 seconds and removes from the root marker set every set that
 * file does not name (but the players' and the popup's). So the script remembers the last marker
 * set it fetched and puts it back as soon as it is removed, in a microtask (before the next frame
 * is drawn, after the removal loop has finished). BlueMap disposes a removed set, so it is built
 * again from the data (the web app rebuilds only what changed on an update, not on a re-add).
 */

export interface BlueMapScriptOptions {
  /** The marker set id in `markers.json`. */
  markerSetId: string;
  /** The BlueMap map (its config file's name, e.g. `world`) the cities are drawn on. */
  mapId: string;
  /** Seconds between two reads of `markers.json`. */
  pollSeconds: number;
}

/**
 * The script's text. It reads `markers.json` next to its own address (so it follows the service
 * wherever it is served from, `/v1` included), with `cache: "no-cache"`: the browser revalidates
 * with If-None-Match and an unchanged file costs a 304.
 */
export function blueMapScript(options: BlueMapScriptOptions): string {
  return `/* Registered cities on BlueMap (BlueMap 5 web app). Served by the community service: docs/web-map.md. */
(() => {
  "use strict";
  const SET_ID = ${JSON.stringify(options.markerSetId)};
  const MAP_ID = ${JSON.stringify(options.mapId)};
  const POLL_MS = ${Math.round(options.pollSeconds * 1000)};
  const self = document.currentScript;
  const app = window.bluemap;
  if (!self || !self.src || !app || !app.mapViewer || !app.events) {
    console.warn("[cities] not loaded as a BlueMap web-app script: nothing to do");
    return;
  }
  const markersUrl = new URL("markers.json", self.src).href;
  /** The marker set as last fetched (null until the first good read). */
  let latest = null;
  /** The set this script put into the scene, while it is there. */
  let shown = null;

  const root = () => app.mapViewer.markers;
  const onOurMap = () => Boolean(app.mapViewer.map && app.mapViewer.map.data && app.mapViewer.map.data.id === MAP_ID);

  function onRemoved(event) {
    if (event.target !== shown) {
      return;
    }
    shown = null;
    // After the remover's loop, before the next frame: no flicker, and no fight with its loop.
    queueMicrotask(show);
  }

  function show() {
    const existing = root().markerSets.get(SET_ID);
    if (!latest || !onOurMap()) {
      if (existing) {
        shown = null;
        root().remove(existing);
      }
      return;
    }
    root().updateMarkerSetFromData(SET_ID, latest);
    const set = root().markerSets.get(SET_ID);
    if (set && set !== shown) {
      shown = set;
      set.addEventListener("removed", onRemoved);
    }
  }

  async function poll() {
    try {
      const response = await fetch(markersUrl, { cache: "no-cache", credentials: "omit" });
      if (!response.ok) {
        throw new Error("HTTP " + response.status);
      }
      const file = await response.json();
      latest = file[SET_ID] || null;
      show();
    } catch (error) {
      // Keep what is shown: the service may be restarting.
      console.warn("[cities] " + markersUrl + ": " + (error && error.message ? error.message : error));
    }
    setTimeout(poll, POLL_MS);
  }

  app.events.addEventListener("bluemapMapChanged", show);
  void poll();
})();
`;
}
