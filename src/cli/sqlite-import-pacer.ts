import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchPacer } from '../users/login-import.service';

/** A transaction of the importing CLI should hold SQLite's write lock about this long (at most twice). */
const TARGET_TRANSACTION_MS = 50;
const MIN_BATCH = 25;
/** Long enough for a waiting server write (SQLite's busy handler retries every few ms) to get in. */
const PAUSE_MS = 10;

/**
 * Issue 10, defect 9: while the CLI imports into a SQLite database the server also writes to,
 * every server write waits for the CLI's transaction to end, and that wait (SQLite's busy
 * handler) blocks the server's event loop for as long as the CLI holds the lock. So the importer
 * bounds each transaction: it starts at --batch-size, halves the batch whenever a transaction
 * held the lock over 100 ms and grows it again while they stay under 50 ms, and pauses 10 ms
 * after each one, leaving a waiting server write a window to get in.
 */
export class SqliteImportPacer implements BatchPacer {
  private current: number;

  constructor(private readonly maxBatch: number) {
    this.current = maxBatch;
  }

  size(): number {
    return this.current;
  }

  async after(transactionMs: number): Promise<void> {
    if (transactionMs > TARGET_TRANSACTION_MS * 2) {
      this.current = Math.max(MIN_BATCH, Math.floor(this.current / 2));
    } else if (transactionMs < TARGET_TRANSACTION_MS) {
      this.current = Math.min(this.maxBatch, Math.ceil(this.current * 1.5));
    }
    await sleep(PAUSE_MS);
  }
}
