import type { TcpProxy } from '../support/tcp-proxy';

/** The four faults every dependency is put through, as the TCP proxy plays them. */
export const FAULTS = ['pause', 'resetOpen', 'slow', 'down'] as const;
export type Fault = (typeof FAULTS)[number];

/**
 * What the ban-list upstream's answers are put through beyond the TCP faults (docs/reliability.md,
 * "Fault suite"): the answer itself is hostile, and the server's memory and other clients are
 * watched meanwhile.
 */
export const BODY_FAULTS = {
  hugeBody: 'a 400 MB body (chunked, no length)',
  endlessBody: 'an endless body, one byte every 100 ms',
  decompressionBomb: 'a gzip bomb (10 GiB from 10 MB)',
  redirect: 'redirects (to the upstream itself and to 169.254.169.254)',
} as const;
export type BodyFault = keyof typeof BODY_FAULTS;

export function applyFault(proxy: TcpProxy, fault: Fault, slowMs: number): void {
  switch (fault) {
    case 'pause':
      proxy.pause();
      return;
    case 'resetOpen':
      proxy.resetOpen();
      return;
    case 'slow':
      proxy.slow(slowMs);
      return;
    case 'down':
      proxy.down();
      return;
  }
}

export interface FaultRow {
  dependency: string;
  fault: string;
  /** What the service answered during the fault, e.g. `503` or `200 (memory)`. */
  answer: string;
  /** The slowest answer during the fault, in ms. */
  slowestMs: number;
  /** The deadline the answer had to meet, in ms. */
  boundMs: number;
  writesLost: number;
  /** From the end of the fault to the first answer served by the dependency again, in ms. */
  recoveryMs: number;
  /** The server process's peak resident memory during the fault less its memory before, in MiB. */
  rssGrowthMiB?: number;
  /** The slowest answer to another client's request during the fault, in ms. */
  othersSlowestMs?: number;
}

/** Rows of one spec file, printed by `print` from afterAll (the fault table of docs/reliability.md). */
export class FaultTable {
  readonly rows: FaultRow[] = [];

  add(row: FaultRow): void {
    this.rows.push(row);
  }

  print(title: string): void {
    // The memory and other-clients columns only where some row measured them.
    const watched = this.rows.some((row) => row.rssGrowthMiB !== undefined || row.othersSlowestMs !== undefined);
    const header = ['dependency', 'fault', 'answer', 'slowest ms', 'bound ms', 'writes lost', 'recovery ms', ...(watched ? ['RSS growth MiB', 'others slowest ms'] : [])];
    const lines = this.rows.map((row) => [
      row.dependency,
      row.fault,
      row.answer,
      String(row.slowestMs),
      String(row.boundMs),
      String(row.writesLost),
      String(row.recoveryMs),
      ...(watched ? [String(row.rssGrowthMiB ?? '-'), String(row.othersSlowestMs ?? '-')] : []),
    ]);
    const widths = header.map((name, column) => Math.max(name.length, ...lines.map((line) => line[column].length)));
    const format = (cells: string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
    const table = [format(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...lines.map(format)].join('\n');
    // Through the console, which Jest prints with the file's results: a direct write from the last
    // file's afterAll can be lost when Jest force-exits.
    console.log(`${title}\n${table}\n`);
  }
}

/** Calls `attempt` until it reports success or `limitMs` passes; the time it took, in ms. */
export async function timeToRecover(attempt: () => Promise<boolean>, limitMs = 20_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await attempt()) {
      return Date.now() - started;
    }
    if (Date.now() - started > limitMs) {
      throw new Error(`did not recover within ${limitMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `work` and returns its result with how long it took. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Puts `proxy` through `fault`, runs `attempt` `count` times meanwhile and ends the fault
 * (`up()`). `resetOpen` is a moment, not a state: each attempt is slowed so that it is in flight
 * when its connection is reset.
 */
export async function duringFault<T>(proxy: TcpProxy, fault: Fault, slowMs: number, attempt: () => Promise<T>, count = 2): Promise<Array<{ value: T; ms: number }>> {
  const results: Array<{ value: T; ms: number }> = [];
  try {
    if (fault !== 'resetOpen') {
      applyFault(proxy, fault, slowMs);
    }
    for (let index = 0; index < count; index += 1) {
      if (fault === 'resetOpen') {
        proxy.slow(300);
        const pending = timed(attempt);
        await sleep(100);
        proxy.resetOpen();
        proxy.up();
        results.push(await pending);
      } else {
        results.push(await timed(attempt));
      }
    }
  } finally {
    proxy.up();
  }
  return results;
}
