import { Module } from '@nestjs/common';
import { CaptchaModule } from '../captcha/captcha.module';
import { TelemetryModule } from '../common/telemetry/telemetry.module';
import { BruteForceLimiter } from './brute-force.limiter';
import { RedisConnection } from './redis-connection';
import { RequestRateLimiter } from './request-rate-limiter';

/**
 * Rate limits and brute-force protection. The club module imports it for BruteForceLimiter (club
 * sign-in and register); the HTTP side (headers, CORS, the per-address hook) is wired in
 * http-security.ts.
 */
@Module({
  imports: [TelemetryModule, CaptchaModule],
  providers: [RedisConnection, RequestRateLimiter, BruteForceLimiter],
  exports: [RequestRateLimiter, BruteForceLimiter],
})
export class SecurityModule {}
