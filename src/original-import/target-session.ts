import type { Transaction } from '../database/unit-of-work';

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
