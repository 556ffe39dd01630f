import { Counter, type Registry } from 'prom-client';

/** The route label of requests that matched no route (one value, so unknown paths add no series). */
export const UNMATCHED_ROUTE = 'unmatched';

const LABEL_NAMES = ['route', 'method', 'status'] as const;
type RequestLabel = (typeof LABEL_NAMES)[number];

/** Seconds; fine at the low end, where the hot reads are. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const DURATION_NAME = 'http_request_duration_seconds';
const DURATION_HELP = 'HTTP request durations in seconds (arrival to the answer handed to the socket), by route template, method and status.';

/** A label value in the text format: backslash, double quote and line feed escaped. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

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
 * own Histogram observe() builds a label hash string per call: ten times the cost, measured in
 * docs/design-and-performance.md, "Only public APIs of libraries"). The counter is prom-client's,
 * filled at scrape time through its public `collect` callback; prom-client has no public way to
 * hand a histogram values counted elsewhere, so the histogram's text is written here in the
 * Prometheus text format and appended to the registry's (Telemetry.render).
 */
export class RequestMetrics {
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(registry: Registry) {
    const all = (): Series[] => this.allSeries();
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
  }

  /** `http_request_duration_seconds` in the Prometheus text format (version 0.0.4), as prom-client writes its own. */
  durationExposition(): string {
    const lines = [`# HELP ${DURATION_NAME} ${DURATION_HELP}`, `# TYPE ${DURATION_NAME} histogram`];
    for (const entry of this.allSeries()) {
      const labels = `route="${escapeLabel(entry.labels.route)}",method="${escapeLabel(entry.labels.method)}",status="${entry.labels.status}"`;
      let cumulative = 0;
      BUCKETS.forEach((bound, index) => {
        cumulative += entry.buckets[index];
        lines.push(`${DURATION_NAME}_bucket{${labels},le="${bound}"} ${cumulative}`);
      });
      lines.push(`${DURATION_NAME}_bucket{${labels},le="+Inf"} ${entry.count}`, `${DURATION_NAME}_sum{${labels}} ${entry.sum}`, `${DURATION_NAME}_count{${labels}} ${entry.count}`);
    }
    return lines.join('\n');
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

  private allSeries(): Series[] {
    return [...this.series.values()].flatMap((byMethod) => [...byMethod.values()].flatMap((byStatus) => [...byStatus.values()]));
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

