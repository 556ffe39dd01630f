import { performance } from 'node:perf_hooks';
import { City } from '../src/cities/city.entity';
import { CityRulesService } from '../src/cities/city-rules.service';
import { blockCount, boundingBox, Point } from '../src/cities/geometry';
import { PlayersService } from '../src/players/players.service';
import { Transaction } from '../src/database/transaction';
import { newPlayer, TestApp } from './support/test-app';

const CITIES = 10_000;
const GRID = 100; // 100 x 100 plots
const PITCH = 20; // plot spacing: 10-block cities with 10-block gaps

/** Plot i: alternately a 10x10 square and an L shape, so the exact test sees both. */
function plot(i: number): Point[] {
  const x = (i % GRID) * PITCH;
  const z = Math.floor(i / GRID) * PITCH;
  if (i % 2 === 0) {
    return [
      { x, z },
      { x, z: z + 9 },
      { x: x + 9, z: z + 9 },
      { x: x + 9, z },
    ];
  }
  return [
    { x, z },
    { x, z: z + 9 },
    { x: x + 4, z: z + 9 },
    { x: x + 4, z: z + 4 },
    { x: x + 9, z: z + 4 },
    { x: x + 9, z },
  ];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/**
 * The overlap check against 10,000 registered cities: bounding-box prefilter in SQL (indexed),
 * exact polygon test after. Prints the timings; the bounds asserted are generous so that a slow
 * CI machine passes while a full scan with exact tests on every city would not.
 */
describe('cities overlap check with 10,000 cities (e2e benchmark)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start();
    const owner = newPlayer();
    await app.app.get(PlayersService).ensure(owner.uuid, owner.mcid);
    const now = new Date();
    const rows = Array.from({ length: CITIES }, (_unused, i) => {
      const corners = plot(i);
      return {
        state: 'active' as const,
        ownerUuid: owner.uuid,
        name: `Bench ${i}`,
        nameKana: 'べんち',
        nameKey: `bench ${i}`,
        kanaKey: `べんち${i}`,
        summary: null,
        origin: null,
        reason: null,
        remarks: null,
        corners,
        blockCount: blockCount(corners),
        ...boundingBox(corners),
        createdAt: now,
        updatedAt: now,
      };
    });
    const repository = app.dataSource.getRepository(City);
    for (let start = 0; start < rows.length; start += 500) {
      await repository.insert(rows.slice(start, start + 500));
    }
  }, 120_000);

  afterAll(async () => {
    await app.stop();
  });

  it('answers each check in milliseconds', async () => {
    const rules = app.app.get(CityRulesService);
    const timings: number[] = [];
    let conflicts = 0;
    const runs = 400;
    for (let run = 0; run < runs; run += 1) {
      const i = (run * 7919) % CITIES;
      const base = plot(i)[0];
      // Even runs: a 6x6 square in the gap right of plot i (free). Odd runs: one touching plot i's far corner block.
      const x = run % 2 === 0 ? base.x + 11 : base.x + 9;
      const z = base.z + 3;
      const corners = [
        { x, z },
        { x, z: z + 5 },
        { x: x + 5 - (run % 2 === 0 ? 2 : 0), z: z + 5 },
        { x: x + 5 - (run % 2 === 0 ? 2 : 0), z },
      ];
      const started = performance.now();
      const outcome = await app.dataSource.transaction((manager) => rules.assertRegionFree(new Transaction(manager), corners, boundingBox(corners)).then(
        () => 'free',
        () => 'conflict',
      ));
      timings.push(performance.now() - started);
      if (outcome === 'conflict') {
        conflicts += 1;
      }
    }
    timings.sort((a, b) => a - b);
    const mean = timings.reduce((sum, value) => sum + value, 0) / timings.length;
    const summary = { db: app.dataSource.options.type, cities: CITIES, checks: runs, conflicts, meanMs: mean.toFixed(2), p50Ms: percentile(timings, 50).toFixed(2), p95Ms: percentile(timings, 95).toFixed(2), maxMs: timings[timings.length - 1].toFixed(2) };
    console.log(`overlap check: ${JSON.stringify(summary)}`);
    // Half the probes touch a city (shared boundary block); the L-shaped plots leave the square probes' notch free.
    expect(conflicts).toBe(runs / 2);
    expect(percentile(timings, 95)).toBeLessThan(100);
  });

  it('creates a city through HTTP quickly with 10,000 cities registered', async () => {
    const gameServerKey = await app.createApiKey(['game-server']);
    const player = newPlayer();
    const usertoken = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const corners = [
      { id: 1, x: -50, z: -50 },
      { id: 2, x: -50, z: -41 },
      { id: 3, x: -41, z: -41 },
      { id: 4, x: -41, z: -50 },
    ];
    const started = performance.now();
    const result = await app.post('/cities/create', { usertoken, cityName: 'Bench newcomer', cityNameKana: 'にゅー', corners, count: 100, recaptcha: 'pass' });
    const elapsed = performance.now() - started;
    console.log(`POST /cities/create with ${CITIES} cities: ${elapsed.toFixed(1)} ms`);
    expect(result.status).toBe(201);
    const list = performance.now();
    const all = await app.get<{ data: unknown[] }>('/cities');
    console.log(`GET /cities with ${CITIES} cities: ${(performance.now() - list).toFixed(1)} ms`);
    expect(all.body.data).toHaveLength(CITIES);
  });
});
