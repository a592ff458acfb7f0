import { Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { SharedRedis } from './shared-redis';

export interface LimiterOptions {
  points: number;
  duration: number;
  keyPrefix: string;
}

export type LimiterFactory = (options: LimiterOptions) => RateLimiterAbstract;

/** Per-process limiters: one instance, or the degraded mode of several. */
export const memoryLimiter: LimiterFactory = (options) => new RateLimiterMemory(options);

/**
 * Limiters that every instance shares through Redis when `REDIS_URL` is set, so a guesser spreading
 * attempts over N instances meets one limit, not N. While Redis is unreachable each falls back to its
 * in-memory twin (rate-limiter-flexible's insurance limiter): limits per instance, but still limits.
 */
@Injectable()
export class SharedLimiters {
  constructor(private readonly redis: SharedRedis) {}

  readonly create: LimiterFactory = (options) => {
    const client = this.redis.client;
    if (!client) return memoryLimiter(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: client,
      keyPrefix: this.redis.key(`limit:${options.keyPrefix}`),
      insuranceLimiter: memoryLimiter(options),
      // While Redis is not ready (down, or frozen and being reconnected: SharedRedis) the in-memory twin
      // answers at once, rather than each request waiting for a command's deadline.
      rejectIfRedisNotReady: true,
    });
  };
}
