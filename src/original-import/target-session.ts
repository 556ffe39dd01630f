import type { Transaction } from '../database/transaction';

/**
 * Where one run writes. A real run gives each batch its own short transaction (a cut-off run keeps
 * what it finished, and a running server is never kept waiting long); a dry run runs every batch
 * in one transaction that is rolled back at the end, so it reports exactly what a real run would do.
 */
export interface TargetSession {
  readonly dryRun: boolean;
  batch<T>(work: (tx: Transaction) => Promise<T>, options?: { lock?: string }): Promise<T>;
  /** Told how long a batch's transaction held the database (SQLite pacing); may pause. */
  after(transactionMs: number): Promise<void>;
  /** How many rows the next batch of a large table should hold. */
  batchSize(): number;
}

/**
 * Rows that take a few queries each (cities, requests, chat links, achievements, club accounts)
 * per transaction: small enough that a running server's write never waits long behind one
 * (docs/benchmarks.md, "Importing the original database").
 */
export const ROWS_PER_TRANSACTION = 50;

/** Runs `work` over a page in transactions of ROWS_PER_TRANSACTION rows, each timed and paced like a login batch. */
export async function inTransactions<T>(
  target: TargetSession,
  rows: readonly T[],
  work: (tx: Transaction, chunk: readonly T[]) => Promise<void>,
  options?: { lock?: string },
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_TRANSACTION) {
    const chunk = rows.slice(start, start + ROWS_PER_TRANSACTION);
    const started = performance.now();
    await target.batch((tx) => work(tx, chunk), options);
    await target.after(performance.now() - started);
  }
}
