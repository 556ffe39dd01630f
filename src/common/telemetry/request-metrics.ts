import { Counter, Histogram, type MetricType, type Registry } from 'prom-client';

/** The route label of requests that matched no route (one value, so unknown paths add no series). */
export const UNMATCHED_ROUTE = 'unmatched';

const LABEL_NAMES = ['route', 'method', 'status'] as const;
type RequestLabel = (typeof LABEL_NAMES)[number];

/** Seconds; fine at the low end, where the hot reads are. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  readonly labels: { route: string; method: string; status: number };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is above the largest bound. */
  readonly buckets: Float64Array;
}

/**
 * The request counter and duration histogram. They are on every request, so the hot path is
 * ours: three map look-ups and a few additions, no allocation once a series exists (prom-client's
 * own observe() builds a label hash string per call, ~1 µs). prom-client still owns the registry
 * and the text format: at scrape time these two metrics hand it their values.
 */
export class RequestMetrics {
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(registry: Registry) {
    const all = (): Series[] => [...this.series.values()].flatMap((byMethod) => [...byMethod.values()].flatMap((byStatus) => [...byStatus.values()]));
    new Counter<RequestLabel>({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route template (unmatched for unknown paths), method and status.',
      labelNames: LABEL_NAMES,
      registers: [registry],
      collect(): void {
        this.reset();
        for (const entry of all()) {
          this.inc(entry.labels, entry.count);
        }
      },
    });
    registry.registerMetric(new DurationHistogram(all));
  }

  observe(route: string | undefined, method: string, status: number, seconds: number): void {
    const entry = this.seriesFor(route ?? UNMATCHED_ROUTE, method, status);
    entry.count += 1;
    entry.sum += seconds;
    let index = 0;
    while (index < BUCKETS.length && seconds > BUCKETS[index]) {
      index += 1;
    }
    entry.buckets[index] += 1;
  }

  private seriesFor(route: string, method: string, status: number): Series {
    let byMethod = this.series.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let entry = byStatus.get(status);
    if (!entry) {
      entry = { labels: { route, method, status }, count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length + 1) };
      byStatus.set(status, entry);
    }
    return entry;
  }
}

type HistogramValues = Awaited<ReturnType<Histogram<RequestLabel>['get']>>;
type HistogramLabels = HistogramValues['values'][number]['labels'];

const DURATION_NAME = 'http_request_duration_seconds';
const DURATION_HELP = 'HTTP request durations in seconds (arrival to the answer handed to the socket), by route template, method and status.';

/** A prom-client histogram whose values come from RequestMetrics' series instead of its own observe(). */
class DurationHistogram extends Histogram<RequestLabel> {
  constructor(private readonly source: () => Series[]) {
    super({
      name: DURATION_NAME,
      help: DURATION_HELP,
      labelNames: LABEL_NAMES,
      buckets: BUCKETS,
      registers: [],
    });
  }

  override get(): Promise<HistogramValues> {
    const values: HistogramValues['values'] = [];
    for (const entry of this.source()) {
      let cumulative = 0;
      BUCKETS.forEach((bound, index) => {
        cumulative += entry.buckets[index];
        values.push({ metricName: `${DURATION_NAME}_bucket`, labels: { ...entry.labels, le: bound } as HistogramLabels, value: cumulative });
      });
      values.push(
        { metricName: `${DURATION_NAME}_bucket`, labels: { ...entry.labels, le: '+Inf' } as HistogramLabels, value: entry.count },
        { metricName: `${DURATION_NAME}_sum`, labels: entry.labels, value: entry.sum },
        { metricName: `${DURATION_NAME}_count`, labels: entry.labels, value: entry.count },
      );
    }
    // prom-client's typings declare MetricType as a numeric enum that does not exist at run time;
    // the registry writes this string into the `# TYPE` line.
    const type = 'histogram' as unknown as MetricType;
    return Promise.resolve({ name: DURATION_NAME, help: DURATION_HELP, type, aggregator: 'sum', collect: () => undefined, values });
  }

  /** The registry prefers this method when it exists; the flat form of get() suits it as well. */
  getForPromString(): Promise<HistogramValues> {
    return this.get();
  }
}
