import { Injectable } from '@nestjs/common';
import type { LoginInput } from './login-batch';
import { ImportRow } from './login-import';
import { LoginsService } from './logins.service';

export const MAX_INVALID_LISTED = 100;

export interface ImportProgress {
  rows: number;
  accepted: number;
  skipped: number;
  invalidCount: number;
}

export interface ImportSummary extends ImportProgress {
  /** Of `skipped`: records before DATA_CUTOFF (the rest repeat stored records). */
  beforeCutoff: number;
  /** The first MAX_INVALID_LISTED invalid lines. */
  invalid: Array<{ line: number; reason: string }>;
  invalidTruncated: boolean;
  batches: number;
}

/**
 * Sets the size of each batch and what happens between batches (e.g. a pause that lets another
 * process take SQLite's write lock). Told how long each batch's transaction took.
 */
export interface BatchPacer {
  size(): number;
  after(transactionMs: number): Promise<void>;
}

/** Feeds parsed export rows to LoginsService in batches, one transaction each. */
@Injectable()
export class LoginImportService {
  constructor(private readonly logins: LoginsService) {}

  async import(rows: AsyncIterable<ImportRow>, options: { batchSize: number; pacer?: BatchPacer; onBatch?: (progress: ImportProgress) => void }): Promise<ImportSummary> {
    const summary: ImportSummary = { rows: 0, accepted: 0, skipped: 0, invalidCount: 0, beforeCutoff: 0, invalid: [], invalidTruncated: false, batches: 0 };
    let batch: LoginInput[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) {
        return;
      }
      const started = performance.now();
      const result = await this.logins.ingest(batch);
      const transactionMs = performance.now() - started;
      batch = [];
      summary.accepted += result.accepted;
      summary.skipped += result.skipped;
      summary.beforeCutoff += result.beforeCutoff;
      summary.batches += 1;
      options.onBatch?.({ rows: summary.rows, accepted: summary.accepted, skipped: summary.skipped, invalidCount: summary.invalidCount });
      await options.pacer?.after(transactionMs);
    };
    for await (const row of rows) {
      summary.rows += 1;
      if ('reason' in row) {
        summary.invalidCount += 1;
        if (summary.invalid.length < MAX_INVALID_LISTED) {
          summary.invalid.push({ line: row.line, reason: row.reason });
        } else {
          summary.invalidTruncated = true;
        }
        continue;
      }
      batch.push(row.record);
      if (batch.length >= (options.pacer?.size() ?? options.batchSize)) {
        await flush();
      }
    }
    await flush();
    return summary;
  }
}
