/**
 * The limits of SECURITY.md, in one place. Constants rather than environment variables: they are
 * part of the product's abuse policy and the same on every deployment; RATE_LIMIT_ENABLED
 * switches all of them off at once. (RATE_LIMIT_TIME_SCALE shrinks the sign-in windows for
 * tests only; production refuses anything but 1.)
 */
export interface LimitPolicy {
  /** Redis key prefix. */
  readonly name: string;
  /** Requests (or failures) allowed per window. */
  readonly points: number;
  /**
   * Window length in seconds. The window slides (sliding-window.ts): no span of this length lets
   * more than `points` through. Redis keys are hashes of buckets (renamed from the fixed
   * windows' `rl:ip`, `rl:fail:*` strings, which are left to expire).
   */
  readonly durationSeconds: number;
}

export const RATE_LIMITS = {
  /** Every request, per client address: generous enough for a busy club-site page or a proxy of a few players. */
  perIp: { name: 'rl:req:ip', points: 600, durationSeconds: 60 },
  /** Failed sign-ins or registrations for one account from one address. */
  failuresPerAccountAndIp: { name: 'rl:fails:acct-ip', points: 10, durationSeconds: 15 * 60 },
  /** Failed sign-ins or registrations from one address, whatever the account. */
  failuresPerIpPerDay: { name: 'rl:fails:ip-day', points: 100, durationSeconds: 24 * 3600 },
  /** Failed password checks of one account, from any address: past this, attempts slow down. */
  failuresPerAccount: { name: 'rl:fails:acct', points: 20, durationSeconds: 3600 },
  /** Correct-password checks of one account, from any address (points: SIGN_INS_PER_ACCOUNT_PER_HOUR). */
  signInsPerAccount: { name: 'rl:signins:acct', points: 20, durationSeconds: 3600 },
} as const satisfies Record<string, LimitPolicy>;

/** How long the sign-in rules refuse, and the slowdown's delays. */
export const SIGN_IN_REFUSALS = {
  /** Rule (a): an (account, address) pair that reached its limit is refused this long. */
  pairBlockSeconds: 15 * 60,
  /** Rule (b): an address that reached its daily limit is refused this long at a time. */
  addressBlockSeconds: 15 * 60,
  /** Rule (b)'s exception: an account signed in from an address is trusted there this long. */
  knownAddressSeconds: 30 * 24 * 3600,
  /** Rule (c): the first delay after the limit, doubling with each further failure, up to the maximum. */
  firstDelaySeconds: 1,
  maxDelaySeconds: 15 * 60,
} as const;

/** A duration shrunk by the test time scale; whole seconds (Redis expiries are), at least one. */
export function scaledSeconds(seconds: number, scale: number): number {
  return Math.max(1, Math.round(seconds * scale));
}

/**
 * Rule (c): the wait before the next attempt on an account after its `failures`-th failure in the
 * window: nothing below the limit, then the first delay, doubling, capped at the maximum.
 */
export function slowdownSeconds(failures: number, limit: number, firstDelaySeconds: number, maxDelaySeconds: number): number {
  if (failures < limit) {
    return 0;
  }
  const doublings = Math.min(failures - limit, 30);
  return Math.min(firstDelaySeconds * 2 ** doublings, maxDelaySeconds);
}
