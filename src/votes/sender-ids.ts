/**
 * Ingest batches idempotent by the sender's own id (docs/game-server.md, "Votes"). Pure helpers
 * shared by the votes and permission-group routes; no Nest, no database.
 */

/** Who stored a row: the game server's routes, or the import of the original database. */
export type Origin = 'game-server' | 'original';

/** Splits a batch into the first item of each sender id and the count of repeats after it. */
export function firstOfEachId<T extends { id: string }>(items: readonly T[]): { unique: T[]; repeats: number } {
  const seen = new Set<string>();
  const unique: T[] = [];
  for (const item of items) {
    if (!seen.has(item.id)) {
      seen.add(item.id);
      unique.push(item);
    }
  }
  return { unique, repeats: items.length - unique.length };
}

/**
 * A concurrent batch stored one of this batch's ids between the check and the insert (MySQL):
 * the transaction is rolled back and run again, and then sees that id as stored.
 */
export class ConcurrentRepeat extends Error {
  constructor() {
    super('A concurrent batch stored the same sender id; running the batch again.');
  }
}

const ATTEMPTS = 3;

/** Runs `work` (a whole transaction) again when it lost a race on a sender id. */
export async function retryingConcurrentRepeats<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ConcurrentRepeat) || attempt >= ATTEMPTS) {
        throw error;
      }
    }
  }
}

/** Compares two strings by code unit: the order rows are written in (one lock order on MySQL). */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
