import { Global, Module } from '@nestjs/common';
import { SharedLimiters } from './shared-limiters';
import { RedisOutages } from './redis-outages';
import { SharedRedis } from './shared-redis';

/**
 * The shared Redis (`REDIS_URL`) and what is built on it; without it, everything stays per instance. Global:
 * what instances share (rate limits, revocations, leases, cache versions) is used by auth, the database layer
 * and the modules alike.
 */
@Global()
@Module({
  providers: [RedisOutages, SharedRedis, SharedLimiters],
  exports: [RedisOutages, SharedRedis, SharedLimiters],
})
export class RedisModule {}
