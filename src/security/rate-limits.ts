/**
 * The limits of issue 7, in one place. Constants rather than environment variables: they are
 * part of the product's abuse policy (SECURITY.md) and the same on every deployment;
 * RATE_LIMIT_ENABLED switches all of them off at once.
 */
export interface LimitPolicy {
  /** Redis key prefix (and memory-limiter name). */
  readonly name: string;
  /** Requests (or failures) allowed per window. */
  readonly points: number;
  /** Window length in seconds, counted from the first hit in the window. */
  readonly durationSeconds: number;
}

export const RATE_LIMITS = {
  /** Every request, per client address: generous enough for a busy club-site page or a proxy of a few players. */
  perIp: { name: 'rl:ip', points: 600, durationSeconds: 60 },
  /** Failed sign-ins or registrations for one account from one address. */
  failuresPerAccountAndIp: { name: 'rl:fail:acct-ip', points: 10, durationSeconds: 15 * 60 },
  /** Failed sign-ins or registrations from one address, whatever the account. */
  failuresPerIpPerDay: { name: 'rl:fail:ip-day', points: 100, durationSeconds: 24 * 3600 },
} as const satisfies Record<string, LimitPolicy>;
