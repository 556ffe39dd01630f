import { QueueFullError } from './bounded-semaphore';
import { PlaceShares } from './place-shares';

/**
 * Who is asking, by each kind of key a share applies to (for the password queue: the account
 * and the client address). The key named `turnBy` in the options decides whose turn it is.
 */
export type CallerKeys = Readonly<Record<string, string>>;

/**
 * A caller already holds its share of the queue's places (running or waiting) for one of its
 * keys: it is told to come back (429 with `Retry-After`) while other callers still get in
 * (docs/reliability.md, "Fair shares").
 */
export class ShareExceededError extends Error {
  override readonly name = 'ShareExceededError';
  readonly code = 'QUEUE_SHARE_EXCEEDED';

  constructor(
    readonly queue: string,
    /** The kind of key whose share is used up (`account`, `address`). */
    readonly keyKind: string,
    readonly share: number,
    /** When one of the caller's places is likely free again, in whole seconds (at least 1). */
    readonly retryAfterSeconds: number,
  ) {
    super(`${queue}: this ${keyKind} already holds its ${share} places`);
  }
}

export interface FairQueueOptions {
  /** Named in errors and logs. */
  readonly name: string;
  /** Pieces of work running at once. */
  readonly slots: number;
  /** Callers allowed to wait for a slot, from everyone together; one more gets QueueFullError. */
  readonly maxWaiting: number;
  /** Places (running or waiting) one key of each kind may hold; kinds not named here are not limited. */
  readonly shares: Readonly<Record<string, number>>;
  /** The key kind that takes turns: waiting callers are served one per value of this key in turn. */
  readonly turnBy: string;
  /** The first estimate of one piece of work, before any has finished (for `Retry-After`). */
  readonly initialWorkMs?: number;
}

interface Waiter {
  readonly start: () => void;
}

/** A caller's places in the queue, held from `reserve` until `release` (once; later calls do nothing). */
export interface Reservation {
  /** Runs `work` in the caller's turn; may be called more than once while the places are held. */
  run<T>(work: () => Promise<T>): Promise<T>;
  release(): void;
}

/** A caller with no keys (work the service does for itself, such as the CLI's): never limited by a share. */
const INTERNAL_TURN = '\0internal';
/** How much one finished piece of work moves the running estimate of its duration. */
const ESTIMATE_WEIGHT = 0.2;

/**
 * A bounded queue that serves its callers in turn rather than in arrival order, and lets no one
 * caller hold more than its share of the places. With first come, first served, one client that
 * sends 70 requests at once puts 70 in front of everyone else; here it holds at most its share,
 * and whoever comes next from another address is served after at most one piece of its work.
 *
 * Turns: each value of the `turnBy` key has its own line; a free slot goes to the head of the
 * next line in a round (plain round-robin: every piece of work costs about the same).
 * Pure: no timers, no I/O; the caller decides what a share refusal means to a client.
 */
export class FairQueue {
  private running = 0;
  private waitingCount = 0;
  /** Lines of waiting callers by turn key; the Map's order is the order of turns. */
  private readonly lines = new Map<string, Waiter[]>();
  /** Places held (reserved, waiting or running) by each key; the total is the queue's own bound, not a place count. */
  private readonly places: PlaceShares;
  private workMs: number;

  constructor(private readonly options: FairQueueOptions) {
    this.workMs = options.initialWorkMs ?? 100;
    this.places = new PlaceShares(options.shares, Number.POSITIVE_INFINITY);
  }

  get name(): string {
    return this.options.name;
  }

  /** Callers waiting for a slot now. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Places held now by one key (for tests and diagnostics): reserved, waiting or running. */
  placesHeld(kind: string, value: string): number {
    return this.places.heldBy(kind, value);
  }

  /**
   * Takes the caller's places now and keeps them until `release`: a caller at its share learns it
   * before the work that precedes the queue (a CAPTCHA check, a database read) is spent on it, and
   * a place cannot be lost to a race between that work and the queue. Throws ShareExceededError.
   * `caller` undefined: the service's own work, with no share.
   */
  reserve(caller: CallerKeys | undefined): Reservation {
    let release = (): void => undefined;
    if (caller) {
      const taken = this.places.take(caller);
      if (!taken.ok) {
        // The total is unbounded here (the queue bounds its waiting callers itself): only a share refuses.
        throw new ShareExceededError(this.options.name, taken.reason === 'share' ? taken.keyKind : 'queue', taken.reason === 'share' ? taken.share : taken.total, this.retryAfterSeconds());
      }
      release = taken.release;
    }
    const turn = caller?.[this.options.turnBy] ?? INTERNAL_TURN;
    return { run: (work) => this.runInTurn(turn, work), release };
  }

  /**
   * Runs `work` when it is this caller's turn. Throws ShareExceededError when one of the caller's
   * keys already holds its share, QueueFullError when the queue as a whole is full; both at once,
   * before anything waits. `caller` undefined: the service's own work, with no share.
   */
  async run<T>(caller: CallerKeys | undefined, work: () => Promise<T>): Promise<T> {
    const reservation = this.reserve(caller);
    try {
      return await reservation.run(work);
    } finally {
      reservation.release();
    }
  }

  private async runInTurn<T>(turn: string, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.slots && this.waitingCount >= this.options.maxWaiting) {
      throw new QueueFullError(this.options.name, this.options.maxWaiting);
    }
    if (this.running < this.options.slots && this.waitingCount === 0) {
      this.running += 1;
    } else {
      this.waitingCount += 1;
      await new Promise<void>((start) => this.enqueue(turn, { start }));
    }
    const started = Date.now();
    try {
      return await work();
    } finally {
      this.workMs += (Date.now() - started - this.workMs) * ESTIMATE_WEIGHT;
      this.passSlot();
    }
  }

  private enqueue(turn: string, waiter: Waiter): void {
    const line = this.lines.get(turn);
    if (line) {
      line.push(waiter);
    } else {
      this.lines.set(turn, [waiter]);
    }
  }

  private passSlot(): void {
    const next = this.nextInTurn();
    if (next) {
      // The slot passes straight to the next caller: `running` stays the same.
      this.waitingCount -= 1;
      next.start();
    } else {
      this.running -= 1;
    }
  }

  /** The head of the line whose turn it is; that line goes to the back of the round. */
  private nextInTurn(): Waiter | undefined {
    const first = this.lines.entries().next();
    if (first.done) {
      return undefined;
    }
    const [turn, line] = first.value;
    const waiter = line.shift();
    this.lines.delete(turn);
    if (line.length > 0) {
      this.lines.set(turn, line);
    }
    return waiter;
  }

  /**
   * When a place is likely free again: everything running and waiting now, shared among the
   * slots, at the running estimate of one piece of work. A caller at its share holds places in
   * that queue; by then at least one of them is done.
   */
  private retryAfterSeconds(): number {
    const pieces = this.running + this.waitingCount;
    return Math.max(1, Math.ceil((pieces * this.workMs) / this.options.slots / 1000));
  }
}

