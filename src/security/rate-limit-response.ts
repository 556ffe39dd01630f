import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';

/** What a limiter says about one key after a hit or a look-up. */
export interface LimitState {
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  msBeforeReset: number;
}

/** The `RateLimit-*` headers (IETF draft form: limit, remaining, seconds until reset). */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(Math.max(0, state.remaining)),
    'RateLimit-Reset': String(secondsUntil(state.msBeforeReset)),
  };
}

/** The 429 error envelope with `Retry-After` and the `RateLimit-*` headers. */
export function rateLimited(message: 'limits.tooManyFailures' | 'limits.accountSlowedDown' | 'limits.tooManyRequests' | 'limits.tooManySignIns', state: LimitState): ApiError {
  const retryAfter = secondsUntil(state.msBeforeReset);
  return new ApiError(429, 'rate_limited', msg(message, { seconds: retryAfter }), undefined, {
    'Retry-After': String(retryAfter),
    ...rateLimitHeaders({ ...state, remaining: 0 }),
  });
}

function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
