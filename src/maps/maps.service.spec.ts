import { heldBy } from '../common/memory/bounded-cache';
import { MapFile } from './map-file';
import { newSvgCache, SVG_CACHE_BOUNDS } from './maps.service';

describe('MapsService picture cache', () => {
  it('counts pictures by their bytes: a few large ones fill it as many small ones do', () => {
    const bounds = { maxEntries: 32, maxBytes: 100_000 };
    const cache = newSvgCache(bounds);
    for (let index = 0; index < 10; index += 1) {
      cache.set(`bbox=${index}`, MapFile.of(`<svg>${'x'.repeat(30_000)}</svg>`, 'image/svg+xml'));
      expect(heldBy(cache, bounds).bytes).toBeLessThanOrEqual(100_000);
    }
    expect(cache.size).toBe(3);
    expect(cache.has('bbox=9')).toBe(true);
    expect(cache.has('bbox=0')).toBe(false);
  });

  it('keeps at most 32 pictures and 16 MiB by default', () => {
    const cache = newSvgCache();
    for (let index = 0; index < 100; index += 1) {
      cache.set(`bbox=${index}`, MapFile.of('<svg/>', 'image/svg+xml'));
    }
    expect(cache.size).toBe(SVG_CACHE_BOUNDS.maxEntries);
    expect(SVG_CACHE_BOUNDS.maxBytes).toBe(16 * 1024 * 1024);
  });
});
