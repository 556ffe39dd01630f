import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { Telemetry } from '../common/telemetry/telemetry';
import { AppConfig } from '../config/app-config';
import { createLimiter, isLimiterVerdict, toLimitState } from './limiter-factory';
import { rateLimited, rateLimitHeaders } from './rate-limit-response';
import { RATE_LIMITS } from './rate-limits';
import { RedisConnection } from './redis-connection';

/**
 * The general per-address limit, run as a Fastify onRequest hook before the body is read.
 * Not registered at all when RATE_LIMIT_ENABLED=false, so it costs nothing then.
 */
@Injectable()
export class RequestRateLimiter {
  readonly enabled: boolean;
  private readonly limiter: RateLimiterAbstract | undefined;
  private readonly logger = new Logger('RateLimit');

  constructor(
    config: AppConfig,
    redis: RedisConnection,
    private readonly telemetry: Telemetry,
  ) {
    this.enabled = config.RATE_LIMIT_ENABLED;
    this.limiter = this.enabled ? createLimiter(RATE_LIMITS.perIp, redis) : undefined;
  }

  /** Counts the request against its client address; throws the 429 envelope when over the limit. */
  async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!this.limiter) {
      return;
    }
    let result: RateLimiterRes;
    try {
      result = await this.limiter.consume(request.ip);
    } catch (rejection) {
      if (!isLimiterVerdict(rejection)) {
        // Both stores failed (should not happen with the memory insurance): fail open, loudly.
        this.logger.error({ msg: 'rate limiter failed; request let through', err: rejection });
        return;
      }
      this.telemetry.rateLimitRefusal('requests');
      throw rateLimited('limits.tooManyRequests', toLimitState(RATE_LIMITS.perIp, rejection));
    }
    void reply.headers(rateLimitHeaders(toLimitState(RATE_LIMITS.perIp, result)));
  }
}
