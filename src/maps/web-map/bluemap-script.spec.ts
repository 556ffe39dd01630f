import { runInNewContext } from 'node:vm';
import { blueMapScript } from './bluemap-script';

/**
 * The script run against a stand-in for BlueMap 5's web app: a root marker set with the methods the
 * script uses (as MarkerSet.js: `markerSets`, `updateMarkerSetFromData`, `remove`, three.js's
 * `removed` event), and the pruning BlueMap's own marker manager does every 10 seconds.
 */
class FakeSet {
  private readonly listeners: Array<(event: { type: string; target: FakeSet }) => void> = [];
  constructor(
    readonly id: string,
    public data: { markers: Record<string, unknown> },
  ) {}
  addEventListener(type: string, listener: (event: { type: string; target: FakeSet }) => void): void {
    if (type === 'removed') {
      this.listeners.push(listener);
    }
  }
  fireRemoved(): void {
    for (const listener of this.listeners) {
      listener({ type: 'removed', target: this });
    }
  }
}

class FakeRoot {
  readonly markerSets = new Map<string, FakeSet>();
  created = 0;
  updateMarkerSetFromData(id: string, data: { markers: Record<string, unknown> }): void {
    const existing = this.markerSets.get(id);
    if (existing) {
      existing.data = data;
    } else {
      this.created += 1;
      this.markerSets.set(id, new FakeSet(id, data));
    }
  }
  remove(set: FakeSet): void {
    this.markerSets.delete(set.id);
    set.fireRemoved();
  }
  /** NormalMarkerManager: every set not in the map's own markers.json goes (but the players' and the popup's). */
  prune(keep: string[] = []): void {
    for (const [id, set] of [...this.markerSets]) {
      if (!keep.includes(id)) {
        this.remove(set);
      }
    }
  }
}

function start(files: Array<unknown>) {
  const root = new FakeRoot();
  const listeners = new Map<string, () => void>();
  const app = {
    mapViewer: { markers: root, map: { data: { id: 'world' } } as { data: { id: string } } | null },
    events: { addEventListener: (type: string, listener: () => void) => listeners.set(type, listener) },
  };
  const timers: Array<() => void> = [];
  const fetched: Array<{ url: string; init: unknown }> = [];
  const fetch = (url: string, init: unknown) => {
    fetched.push({ url, init });
    const next = files.shift();
    return Promise.resolve(next instanceof Error ? { ok: false, status: 503, json: () => Promise.reject(next) } : { ok: true, status: 200, json: () => Promise.resolve(next) });
  };
  const warnings: string[] = [];
  runInNewContext(blueMapScript({ markerSetId: 'community-cities', mapId: 'world', pollSeconds: 30 }), {
    window: { bluemap: app },
    document: { currentScript: { src: 'https://api.example.org/v1/maps/bluemap/cities.js' } },
    fetch,
    URL,
    queueMicrotask,
    setTimeout: (callback: () => void, ms: number) => {
      expect(ms).toBe(30_000);
      timers.push(callback);
    },
    console: { warn: (text: string) => warnings.push(text) },
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const tick = async () => {
    timers.shift()!();
    await settle();
  };
  return { root, app, listeners, fetched, warnings, settle, tick };
}

const file = (...ids: number[]) => ({ 'community-cities': { label: 'Cities', toggleable: true, markers: Object.fromEntries(ids.map((id) => [`city-${id}`, { type: 'shape' }])) } });

describe('the BlueMap web-app script', () => {
  it('reads markers.json next to its own address, revalidating, and shows the set on the configured map', async () => {
    const run = start([file(1, 2)]);
    await run.settle();
    expect(run.fetched).toEqual([{ url: 'https://api.example.org/v1/maps/bluemap/markers.json', init: { cache: 'no-cache', credentials: 'omit' } }]);
    expect(Object.keys(run.root.markerSets.get('community-cities')!.data.markers)).toEqual(['city-1', 'city-2']);
  });

  it("puts the set back at once when BlueMap's marker manager prunes it", async () => {
    const run = start([file(1)]);
    await run.settle();
    run.root.prune(['bm-players']);
    expect(run.root.markerSets.has('community-cities')).toBe(false);
    await Promise.resolve();
    expect(run.root.markerSets.has('community-cities')).toBe(true);
    run.root.prune();
    await Promise.resolve();
    expect(run.root.markerSets.has('community-cities')).toBe(true);
    expect(run.root.created).toBe(3);
  });

  it('follows the next read: a new city appears, a deleted one goes, in place', async () => {
    const run = start([file(1), file(1, 2), file(2)]);
    await run.settle();
    await run.tick();
    expect(Object.keys(run.root.markerSets.get('community-cities')!.data.markers)).toEqual(['city-1', 'city-2']);
    await run.tick();
    expect(Object.keys(run.root.markerSets.get('community-cities')!.data.markers)).toEqual(['city-2']);
    expect(run.root.created).toBe(1);
  });

  it('shows nothing on another map, and the cities again on returning', async () => {
    const run = start([file(1)]);
    await run.settle();
    run.app.mapViewer.map = { data: { id: 'world_the_nether' } };
    run.listeners.get('bluemapMapChanged')!();
    expect(run.root.markerSets.has('community-cities')).toBe(false);
    run.root.prune();
    await Promise.resolve();
    expect(run.root.markerSets.has('community-cities')).toBe(false);
    run.app.mapViewer.map = { data: { id: 'world' } };
    run.listeners.get('bluemapMapChanged')!();
    expect(run.root.markerSets.has('community-cities')).toBe(true);
  });

  it('keeps what it shows when a read fails, and polls on', async () => {
    const run = start([file(1), new Error('down'), file(1, 3)]);
    await run.settle();
    await run.tick();
    expect(run.warnings).toEqual(['[cities] https://api.example.org/v1/maps/bluemap/markers.json: HTTP 503']);
    expect(Object.keys(run.root.markerSets.get('community-cities')!.data.markers)).toEqual(['city-1']);
    await run.tick();
    expect(Object.keys(run.root.markerSets.get('community-cities')!.data.markers)).toEqual(['city-1', 'city-3']);
  });
});
