import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchPacer } from '../users/login-import.service';

/** A transaction of the importing CLI should hold SQLite's write lock about this long. */
const TARGET_TRANSACTION_MS = 40;
const MIN_BATCH = 25;

/**
 * Issue 10, defect 9: while the CLI imports into a SQLite database the server also writes to,
 * every server write waits for the CLI's transaction to end, and that wait (SQLite's busy
 * handler) blocks the server's event loop. So the importer keeps each transaction short (the
 * batch adapts towards ~40 ms) and pauses half as long as it held the lock after each one,
 * leaving the server a window to write.
 */
export class SqliteImportPacer implements BatchPacer {
  private current: number;

  constructor(private readonly maxBatch: number) {
    this.current = Math.min(maxBatch, 1000);
  }

  size(): number {
    return this.current;
  }

  async after(transactionMs: number): Promise<void> {
    if (transactionMs > TARGET_TRANSACTION_MS * 2) {
      this.current = Math.max(MIN_BATCH, Math.floor(this.current / 2));
    } else if (transactionMs < TARGET_TRANSACTION_MS / 2) {
      this.current = Math.min(this.maxBatch, Math.ceil(this.current * 1.5));
    }
    await sleep(Math.max(1, Math.min(transactionMs / 2, 50)));
  }
}
