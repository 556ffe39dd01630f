import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchPacer } from '../users/login-import.service';

/** How one importing command paces its transactions (see SqliteImportPacer). */
export interface PacerSettings {
  /** A transaction should hold SQLite's write lock about this long (at most twice). */
  targetTransactionMs: number;
  /** The batch never shrinks below this many rows. */
  minBatch: number;
  /** The pause after each transaction, a window for a waiting server write. */
  pauseMs: number;
}

/**
 * The pacing of both importers (`import:logins`, `import:original`; docs/moving-from-original.md,
 * "Figures"). A server write that finds the lock taken retries after 1, 2, 5, 10, 15, 20, 25, 25,
 * 25 ms, then every 50 to 100 ms; a pause shorter than those steps can fall between two retries,
 * and then the server waits through the next transaction too, again and again, up to its 2 s
 * limit and a 503. `import:logins` paused 10 ms; CI once saw a server p99 of 0.9 s during it
 * (not reproduced: 57 ms in nine runs), and this is the known way a write waits that long.
 * A 30 ms pause always holds a retry of a write that has waited under 128 ms, and a 30 ms
 * transaction keeps that wait short. A batch never shrinks below 250 rows: on a busy machine every
 * transaction looks slow, and tiny batches cost far more pauses than they save.
 */
const SQLITE_IMPORT_PACING: PacerSettings = { targetTransactionMs: 30, minBatch: 250, pauseMs: 30 };

/**
 * Issue 10, defect 9: while the CLI imports into a SQLite database the server also writes to,
 * every server write waits for the CLI's transaction to end, and that wait (SQLite's busy
 * handler) blocks the server's event loop for as long as the CLI holds the lock. So the importer
 * bounds each transaction: it starts at --batch-size, halves the batch whenever a transaction
 * held the lock over twice the target and grows it again while they stay under the target, and
 * pauses after each one, leaving a waiting server write a window to get in.
 */
export class SqliteImportPacer implements BatchPacer {
  private current: number;

  constructor(
    private readonly maxBatch: number,
    private readonly settings: PacerSettings = SQLITE_IMPORT_PACING,
  ) {
    this.current = maxBatch;
  }

  size(): number {
    return this.current;
  }

  async after(transactionMs: number): Promise<void> {
    const { targetTransactionMs, minBatch, pauseMs } = this.settings;
    if (transactionMs > targetTransactionMs * 2) {
      this.current = Math.max(Math.min(minBatch, this.maxBatch), Math.floor(this.current / 2));
    } else if (transactionMs < targetTransactionMs) {
      this.current = Math.min(this.maxBatch, Math.ceil(this.current * 1.5));
    }
    await sleep(pauseMs);
  }
}
