import { Semaphore } from 'async-mutex';

/**
 * A queue reached its bound: the caller is told to come back (503 with `Retry-After`) instead of
 * joining a queue that only grows (docs/reliability.md, "The database").
 */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
  readonly code = 'QUEUE_FULL';

  constructor(
    readonly queue: string,
    readonly limit: number,
  ) {
    super(`${queue}: ${limit} callers are already waiting`);
  }
}

/**
 * At most `slots` callers run at once and at most `maxWaiting` wait for a slot; one more is
 * refused at once with QueueFullError. Under overload a short refusal is better than a queue whose
 * wait grows without end and whose callers time out anyway.
 */
export class BoundedSemaphore {
  private readonly semaphore: Semaphore;
  /** Callers inside `run`, running or waiting. */
  private pending = 0;

  constructor(
    readonly name: string,
    private readonly slots: number,
    readonly maxWaiting: number,
  ) {
    this.semaphore = new Semaphore(slots);
  }

  /** Callers waiting for a slot now. */
  get waiting(): number {
    return Math.max(0, this.pending - this.slots);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.pending >= this.slots + this.maxWaiting) {
      throw new QueueFullError(this.name, this.maxWaiting);
    }
    this.pending += 1;
    try {
      return await this.semaphore.runExclusive(work);
    } finally {
      this.pending -= 1;
    }
  }
}
