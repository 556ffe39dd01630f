import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

/**
 * The Redis connection shared by the rate limiters, opened only when REDIS_URL is set and
 * rate limiting is on. It never blocks a request: commands fail at once while Redis is down
 * (no offline queue), a stalled one within REDIS_COMMAND_TIMEOUT_MS, and the limiters fall back
 * to memory (docs/reliability.md).
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis | undefined;
  private readonly logger = new Logger('Redis');
  private lastWarning = 0;

  constructor(config: AppConfig) {
    if (!config.RATE_LIMIT_ENABLED || !config.REDIS_URL) {
      return;
    }
    this.client = new Redis(config.REDIS_URL, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: config.REDIS_CONNECT_TIMEOUT_MS,
      commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
      // A socket that never connected never emits 'close'; don't let its 2 s default timer delay the exit.
      disconnectTimeout: 200,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Without a listener an unreachable Redis would crash the process; warn at most once a minute.
    this.client.on('error', (error: Error) => {
      if (Date.now() - this.lastWarning > 60_000) {
        this.lastWarning = Date.now();
        this.logger.warn(`Redis unavailable (${error.message}); rate limits fall back to this process's memory.`);
      }
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.client) {
      return;
    }
    if (this.client.status !== 'ready') {
      this.client.disconnect();
      return;
    }
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
