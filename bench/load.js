// The load generator, in its own process (forked by bench.js), so that no server under test shares
// a process or an event loop with autocannon. Each IPC message is one measurement:
// { id, url, paths: [...], headers, method, connections, duration, overallRate }; every connection
// sends the paths in turn (bench.js lists them in random order). The answer is { id, result } or
// { id, error }. Requests are static, so autocannon builds each one once: a setupRequest callback
// would rebuild every request and cost the generator about a third of its rate, which is what
// limits the baselines on two cores.
const autocannon = require('autocannon');

function measure(job) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: job.duration,
        overallRate: job.overallRate,
        requests: job.paths.map((path) => ({ method: job.method ?? 'GET', headers: job.headers ?? {}, path })),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

process.on('message', (job) => {
  measure(job).then(
    (result) =>
      process.send({
        id: job.id,
        result: {
          rps: result.requests.average,
          total: result.requests.total,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.timeouts + result.non2xx - (result['3xx'] ?? 0),
          statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count])),
        },
      }),
    (error) => process.send({ id: job.id, error: String(error?.stack ?? error) }),
  );
});
process.on('disconnect', () => process.exit(0));
