import { setTimeout as delay } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { BodyRefusedError, boundedGet, type BoundedAnswer } from '../common/http/bounded-get';
import { startDeadline } from '../common/timing/deadline';
import { AppConfig } from '../config/app-config';
import { maskUrl } from '../events/webhook-url';
import { backoffMs, parseUpstreamPlayer, retryAfterMs, UpstreamPlayer } from './upstream-player';

/** What one player's fetch came to. */
export type FetchOutcome =
  | { kind: 'found'; player: UpstreamPlayer }
  | { kind: 'absent' }
  | { kind: 'failed'; reason: string; timedOut?: true };

type Attempt = FetchOutcome | { kind: 'transient'; reason: string } | { kind: 'rate-limited'; waitMs: number };

/**
 * Retries after a 5xx or a connection that failed at once (refused, reset): up to 3 requests.
 * A timeout is not retried within the run (docs/game-server.md, Syncing): the next run tries again, so one
 * hanging upstream player costs a run at most one BANLIST_TIMEOUT_MS.
 */
const TRANSIENT_RETRIES = 2;
/** Connection failures that cost no waiting, so retrying them is cheap. */
const RETRIED_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const BACKOFF_BASE_MS = 400;
const MAX_RETRY_AFTER_MS = 60_000;
const DEFAULT_RETRY_AFTER_MS = 5_000;
/** The largest answer accepted, in bytes after decompression (5 MB; a real player's record is a few KB). */
const MAX_BODY_BYTES = 5_000_000;

/**
 * Shared by the fetches of one run: a 429 pauses every worker until `Retry-After` has passed,
 * and aborting the signal (shutdown) ends every wait and request at once.
 */
export class FetchContext {
  private resumeAt = 0;

  constructor(readonly signal: AbortSignal = new AbortController().signal) {}

  pauseFor(ms: number): void {
    this.resumeAt = Math.max(this.resumeAt, Date.now() + ms);
  }

  async ready(): Promise<void> {
    for (let wait = this.resumeAt - Date.now(); wait > 0; wait = this.resumeAt - Date.now()) {
      await delay(wait, undefined, { signal: this.signal });
    }
  }

  sleep(ms: number): Promise<void> {
    return delay(ms, undefined, { signal: this.signal });
  }
}

/** The upstream ban-list service: `GET {BANLIST_SOURCE_URL}/player/{uuid}`. */
@Injectable()
export class BanlistClient {
  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return Boolean(this.config.BANLIST_SOURCE_URL);
  }

  /**
   * Never throws for upstream trouble: retries 5xx and refused/reset connections with jittered
   * backoff (never a timeout), honours
   * one 429 (`Retry-After`, at most 60 s) and reports everything else as a failed fetch.
   */
  async fetchPlayer(uuid: string, context: FetchContext): Promise<FetchOutcome> {
    try {
      const first = await this.withRetries(uuid, context);
      if (first.kind !== 'rate-limited') {
        return first;
      }
      context.pauseFor(first.waitMs);
      const second = await this.withRetries(uuid, context);
      return second.kind === 'rate-limited' ? { kind: 'failed', reason: 'rate limited twice (429)' } : second;
    } catch (error) {
      if (context.signal.aborted) {
        return { kind: 'failed', reason: 'run cancelled' };
      }
      throw error;
    }
  }

  private async withRetries(uuid: string, context: FetchContext): Promise<Exclude<Attempt, { kind: 'transient' }>> {
    for (let attempt = 0; ; attempt += 1) {
      await context.ready();
      const result = await this.attempt(uuid, context.signal);
      if (result.kind !== 'transient') {
        return result;
      }
      if (attempt >= TRANSIENT_RETRIES) {
        return { kind: 'failed', reason: `${result.reason} (after ${attempt + 1} attempts)` };
      }
      await context.sleep(backoffMs(attempt, BACKOFF_BASE_MS));
    }
  }

  private async attempt(uuid: string, runSignal: AbortSignal): Promise<Attempt> {
    const base = (this.config.BANLIST_SOURCE_URL ?? '').replace(/\/+$/, '');
    // The deadline owns its timer: `AbortSignal.timeout` inside `AbortSignal.any` can be garbage
    // collected on Node 20 and never fire, and a silent upstream then hangs the run for ever
    // (docs/reliability.md).
    const deadline = startDeadline(this.config.BANLIST_TIMEOUT_MS, { signal: runSignal, what: 'ban-list upstream' });
    let answer: BoundedAnswer;
    try {
      // The deadline covers the whole body, and the body is bounded as it arrives (after
      // decompression): a huge, endless or compressed-bomb answer costs at most MAX_BODY_BYTES of
      // memory and BANLIST_TIMEOUT_MS of time (docs/game-server.md, Syncing).
      answer = await boundedGet(new URL(`${base}/player/${encodeURIComponent(uuid)}`), {
        headers: { accept: 'application/json' },
        maxBytes: MAX_BODY_BYTES,
        signal: deadline.signal,
      });
    } catch (error) {
      if (runSignal.aborted) {
        throw error;
      }
      if (deadline.signal.aborted) {
        return { kind: 'failed', reason: `timed out after ${this.config.BANLIST_TIMEOUT_MS} ms (not retried in this run)`, timedOut: true };
      }
      if (error instanceof BodyRefusedError) {
        return { kind: 'failed', reason: error.message };
      }
      const code = networkCode(error);
      return RETRIED_NETWORK_CODES.has(code) ? { kind: 'transient', reason: `network error ${code}` } : { kind: 'failed', reason: `network error ${code || 'unknown'}` };
    } finally {
      deadline.dispose();
    }
    const { status, headers, body } = answer;
    if (status === 404) {
      return { kind: 'absent' };
    }
    if (status === 429) {
      return { kind: 'rate-limited', waitMs: retryAfterMs(headers.get('retry-after'), Date.now(), MAX_RETRY_AFTER_MS, DEFAULT_RETRY_AFTER_MS) };
    }
    if (status >= 500) {
      return { kind: 'transient', reason: `upstream answered ${status}` };
    }
    if (status >= 300 && status < 400) {
      // Not followed: the operator named the upstream, not wherever it points to (SECURITY.md,
      // Availability). Only the target's scheme and host are shown.
      const location = headers.get('location');
      return { kind: 'failed', reason: `upstream answered ${status}${location ? ` redirecting to ${redirectTarget(location, base)}` : ''}; redirects are not followed` };
    }
    if (status !== 200) {
      return { kind: 'failed', reason: `upstream answered ${status}` };
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return { kind: 'failed', reason: 'body is not JSON' };
    }
    const parsed = parseUpstreamPlayer(json, uuid);
    return parsed.ok ? { kind: 'found', player: parsed.player } : { kind: 'failed', reason: `malformed body: ${parsed.problem}` };
  }
}

/** Where a redirect points, scheme and host only (its path may carry a token). */
function redirectTarget(location: string, base: string): string {
  try {
    return maskUrl(new URL(location, base).toString());
  } catch {
    return 'an invalid address';
  }
}

/** The socket's error code: undici puts it on `cause` (sometimes nested once more). */
function networkCode(error: unknown): string {
  for (let current: unknown = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') {
      return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}
