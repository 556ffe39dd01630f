import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CaptchaService } from '../captcha/captcha.service';
import { overLimitCaptchaToken } from '../common/http/answer-style';
import { Telemetry } from '../common/telemetry/telemetry';
import { AppConfig } from '../config/app-config';
import { createCounter, toLimitState } from './limiter-factory';
import { rateLimited, rateLimitHeaders } from './rate-limit-response';
import { RATE_LIMITS } from './rate-limits';
import { RedisConnection } from './redis-connection';
import type { WindowState } from './sliding-window';
import type { WindowCounter } from './window-counters';

/**
 * The general per-address limit over a sliding window, run as a Fastify onRequest hook before the
 * body is read. Not registered at all when RATE_LIMIT_ENABLED=false, so it costs nothing then.
 */
@Injectable()
export class RequestRateLimiter {
  readonly enabled: boolean;
  private readonly counter: WindowCounter | undefined;
  private readonly logger = new Logger('RateLimit');

  constructor(
    config: AppConfig,
    redis: RedisConnection,
    private readonly telemetry: Telemetry,
    private readonly captcha: CaptchaService,
  ) {
    this.enabled = config.RATE_LIMIT_ENABLED;
    this.counter = this.enabled ? createCounter(RATE_LIMITS.perIp, redis) : undefined;
  }

  /** Counts the request against its client address; throws the 429 envelope when over the limit. */
  async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!this.counter) {
      return;
    }
    let state: WindowState;
    try {
      state = await this.counter.hit(request.ip, RATE_LIMITS.perIp.points);
    } catch (error) {
      // Both stores failed (should not happen with the memory fallback): fail open, loudly.
      this.logger.error({ msg: 'rate limiter failed; request let through', err: error });
      return;
    }
    if (!state.allowed) {
      if (await this.captchaLetsThrough(request)) {
        return;
      }
      this.telemetry.rateLimitRefusal('requests');
      throw rateLimited('limits.tooManyRequests', toLimitState(RATE_LIMITS.perIp, state));
    }
    void reply.headers(rateLimitHeaders(toLimitState(RATE_LIMITS.perIp, state)));
  }

  /**
   * The public sites' reads (docs/players-site.md, "Limits and CAPTCHA"): over the limit, a token
   * that verifies (action `login` allowed) lets the request through. Tokens are verified only
   * here, never on an ordinary read; with CAPTCHA off there is nothing to verify, so none does.
   */
  private async captchaLetsThrough(request: FastifyRequest): Promise<boolean> {
    const token = overLimitCaptchaToken(request);
    if (token === undefined || !this.captcha.enabled) {
      return false;
    }
    try {
      await this.captcha.verify(token, request.ip, { alsoAllowAction: 'login' });
      return true;
    } catch {
      // A token that fails, or a provider that cannot answer: the ordinary refusal.
      return false;
    }
  }
}
