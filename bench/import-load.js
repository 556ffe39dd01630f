// The server load shared by the import benchmarks (import-latency.js, original-import.js): 4
// clients, one request in four a write (POST /game-server/userkeys), the rest reads of
// `readPath(n)`, until `until()` says stop; latency percentiles per kind.

/** The value after `--name` on the command line, or `fallback`. */
function arg(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

function percentile(sorted, p) {
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value) => (value === null ? null : Math.round(value * 10) / 10);
  return { requests: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? null) };
}

async function load({ base, key, until, readPath }) {
  const reads = [];
  const writes = [];
  let errors = 0;
  /** The first few 5xx answers: which request, when, and the error envelope's message. */
  const failures = [];
  let n = 0;
  const client = async () => {
    while (!until()) {
      n += 1;
      const write = n % 4 === 0;
      const started = performance.now();
      const response = write
        ? await fetch(`${base}/game-server/userkeys`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ uuid: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`, mcid: `bench_${n}` }) })
        : await fetch(`${base}${readPath(n)}`);
      const body = await response.text();
      if (response.status >= 500) {
        errors += 1;
        if (failures.length < 10) {
          failures.push({ at: new Date().toISOString(), request: write ? 'POST /game-server/userkeys' : `GET ${readPath(n)}`, status: response.status, ms: Math.round(performance.now() - started), message: body.slice(0, 200) });
        }
      }
      (write ? writes : reads).push(performance.now() - started);
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  return { reads: stats(reads), writes: stats(writes), all: stats([...reads, ...writes]), errors5xx: errors, failures };
}

module.exports = { arg, load, stats };
