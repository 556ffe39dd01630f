import { Global, Module } from '@nestjs/common';
import { BruteForceLimiter } from './brute-force.limiter';
import { RedisConnection } from './redis-connection';
import { RequestRateLimiter } from './request-rate-limiter';

/**
 * Rate limits and brute-force protection. Global so that feature services (club sign-in and
 * register) can inject BruteForceLimiter without importing this module; the HTTP side
 * (headers, CORS, the per-address hook) is wired in http-security.ts.
 */
@Global()
@Module({
  providers: [RedisConnection, RequestRateLimiter, BruteForceLimiter],
  exports: [RequestRateLimiter, BruteForceLimiter],
})
export class SecurityModule {}
