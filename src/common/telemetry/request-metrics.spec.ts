import { Histogram, Registry } from 'prom-client';
import { RequestMetrics, UNMATCHED_ROUTE } from './request-metrics';

/** prom-client writes `le` first; ours (as before, and as the dashboards read it) writes it last. */
const leLast = (line: string): string => line.replace(/\{le="([^"]*)",(.*)\}/, '{$2,le="$1"}');

describe(RequestMetrics.name, () => {
  it('writes the duration histogram exactly as prom-client writes its own Histogram, label values escaped', async () => {
    const observations: Array<[string | undefined, string, number, number]> = [
      ['/cities/:id', 'GET', 200, 0.0004],
      ['/cities/:id', 'GET', 200, 0.001],
      ['/cities/:id', 'GET', 200, 0.03],
      ['/cities/:id', 'GET', 404, 12],
      [undefined, 'POST', 404, 0.2],
      ['/odd/"quoted"\\path\nline', 'GET', 200, 0.004],
    ];
    const ours = new RequestMetrics(new Registry());
    const registry = new Registry();
    const reference = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request durations in seconds (arrival to the answer handed to the socket), by route template, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    for (const [route, method, status, seconds] of observations) {
      ours.observe(route, method, status, seconds);
      reference.observe({ route: route ?? UNMATCHED_ROUTE, method, status }, seconds);
    }
    const expected = (await registry.metrics()).trimEnd().split('\n').map(leLast);
    expect(ours.durationExposition().split('\n')).toEqual(expected);
    expect(ours.durationExposition()).toContain('route="/odd/\\"quoted\\"\\\\path\\nline"');
  });
});
