import { Telemetry } from '../common/telemetry/telemetry';
import { MetricsService } from './metrics.service';

/** The value of one sample line of the text format, or undefined when the line is absent. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((entry) => entry.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe(MetricsService.name, () => {
  it('counts requests by route template, method and status, with cumulative duration buckets', async () => {
    const telemetry = new Telemetry();
    telemetry.observeRequest('/cities/:id', 'GET', 200, 0.4);
    telemetry.observeRequest('/cities/:id', 'GET', 200, 1);
    telemetry.observeRequest('/cities/:id', 'GET', 200, 30);
    telemetry.observeRequest('/cities/:id', 'GET', 404, 2);
    telemetry.observeRequest(undefined, 'POST', 404, 20_000);
    const text = await new MetricsService(telemetry).render();

    const cities = 'route="/cities/:id",method="GET",status="200"';
    expect(sample(text, `http_requests_total{${cities}}`)).toBe(3);
    expect(sample(text, `http_requests_total{route="/cities/:id",method="GET",status="404"}`)).toBe(1);
    expect(sample(text, `http_requests_total{route="unmatched",method="POST",status="404"}`)).toBe(1);
    // Bounds are inclusive (le): 1 ms falls in the 0.001 bucket.
    expect(sample(text, `http_request_duration_seconds_bucket{${cities},le="0.001"}`)).toBe(2);
    expect(sample(text, `http_request_duration_seconds_bucket{${cities},le="0.025"}`)).toBe(2);
    expect(sample(text, `http_request_duration_seconds_bucket{${cities},le="0.05"}`)).toBe(3);
    expect(sample(text, `http_request_duration_seconds_bucket{${cities},le="+Inf"}`)).toBe(3);
    expect(sample(text, `http_request_duration_seconds_count{${cities}}`)).toBe(3);
    expect(sample(text, `http_request_duration_seconds_sum{${cities}}`)).toBeCloseTo(0.0314, 6);
    expect(sample(text, `http_request_duration_seconds_bucket{route="unmatched",method="POST",status="404",le="10"}`)).toBe(0);
    expect(sample(text, `http_request_duration_seconds_bucket{route="unmatched",method="POST",status="404",le="+Inf"}`)).toBe(1);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE http_requests_total counter');
  });

  it('shows every known outcome at zero before the first event', async () => {
    const text = await new MetricsService(new Telemetry()).render();
    expect(sample(text, 'database_errors_total{kind="deadlock"}')).toBe(0);
    expect(sample(text, 'database_deadlock_retries_total')).toBe(0);
    expect(sample(text, 'rate_limit_refusals_total{limit="account-slowdown"}')).toBe(0);
    expect(sample(text, 'banlist_sync_runs_total{outcome="skipped"}')).toBe(0);
    expect(sample(text, 'webhook_deliveries_total{outcome="delivered"}')).toBe(0);
    // Process metrics only once the HTTP server asks for them.
    expect(text).not.toContain('process_cpu_user_seconds_total');
  });

  it('renders what Telemetry counted, by label', async () => {
    const telemetry = new Telemetry();
    telemetry.databaseError('unavailable');
    telemetry.deadlockRetry();
    telemetry.rateLimitRefusal('address');
    telemetry.rateLimitRefusal('address');
    telemetry.banlistRun('stopped');
    telemetry.webhookDelivery('rate_limited');
    const text = await new MetricsService(telemetry).render();
    expect(sample(text, 'database_errors_total{kind="unavailable"}')).toBe(1);
    expect(sample(text, 'database_deadlock_retries_total')).toBe(1);
    expect(sample(text, 'rate_limit_refusals_total{limit="address"}')).toBe(2);
    expect(sample(text, 'rate_limit_refusals_total{limit="requests"}')).toBe(0);
    expect(sample(text, 'banlist_sync_runs_total{outcome="stopped"}')).toBe(1);
    expect(sample(text, 'webhook_deliveries_total{outcome="rate_limited"}')).toBe(1);
  });

  it('adds the process metrics on request, once', async () => {
    const metrics = new MetricsService(new Telemetry());
    metrics.collectProcessMetrics();
    metrics.collectProcessMetrics();
    const text = await metrics.render();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});
