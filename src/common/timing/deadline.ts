/**
 * Deadlines for everything that leaves the process (HTTP upstreams, DNS, Redis, the database).
 *
 * Why not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: on Node 20 the composite signal
 * holds its sources weakly and nothing else holds the timeout signal, so a garbage collection
 * during the wait can take the timeout away and the call then waits for ever. Here the timer
 * belongs to the deadline itself (the timer list holds it strongly until it fires or is
 * cleared), it follows the caller's signal, and it removes its listener when done, so a
 * long-lived caller signal (a whole sync run) does not collect one listener per call.
 */

/** The work did not finish within its deadline. `what` names the call, never a secret. */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';

  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not finish within ${ms} ms`);
  }
}

export interface Deadline {
  /** Aborts when the time is up (reason: DeadlineExceededError) or when the caller's signal aborts (its reason). */
  readonly signal: AbortSignal;
  /** Stops the timer and detaches from the caller's signal; call it in `finally`. Idempotent. */
  dispose(): void;
}

export interface DeadlineOptions {
  /** The caller's signal (a run being stopped, a request that went away). */
  signal?: AbortSignal;
  /** Names the call in the error, e.g. `ban-list upstream`. */
  what?: string;
}

export function startDeadline(ms: number, options: DeadlineOptions = {}): Deadline {
  const controller = new AbortController();
  const what = options.what ?? 'the call';
  const parent = options.signal;
  const onParentAbort = (): void => {
    dispose();
    controller.abort(parent?.reason);
  };
  const timer = setTimeout(() => {
    dispose();
    controller.abort(new DeadlineExceededError(what, ms));
  }, ms);
  // The timer must not keep a finished process alive; it still fires while the process runs.
  timer.unref();
  let disposed = false;
  function dispose(): void {
    if (disposed) {
      return;
    }
    disposed = true;
    clearTimeout(timer);
    parent?.removeEventListener('abort', onParentAbort);
  }
  if (parent?.aborted) {
    onParentAbort();
  } else {
    parent?.addEventListener('abort', onParentAbort, { once: true });
  }
  return { signal: controller.signal, dispose };
}

/**
 * Runs `work` with a signal that aborts after `ms`, and settles by then even when `work`
 * ignores its signal (a DNS lookup, a driver call): the late result is dropped.
 */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>, options: DeadlineOptions = {}): Promise<T> {
  const deadline = startDeadline(ms, options);
  try {
    return await raceSignal(work(deadline.signal), deadline.signal);
  } finally {
    deadline.dispose();
  }
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The abandoned promise may still reject later; nobody waits for it any more.
    promise.catch(() => undefined);
    return Promise.reject(toError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(toError(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(toError(error));
      },
    );
  });
}

/** Whether `error` is a deadline that ran out (directly, or as the cause of a fetch/driver error). */
export function isDeadlineExceeded(error: unknown): error is DeadlineExceededError {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    if (current instanceof DeadlineExceededError) {
      return true;
    }
  }
  return false;
}

function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
