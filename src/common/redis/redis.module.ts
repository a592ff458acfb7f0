import { Global, Module } from '@nestjs/common';
import { SharedLimiters } from './shared-limiters';
import { SharedRedis } from './shared-redis';

/** The shared Redis (`REDIS_URL`) and what is built on it; without it, everything stays per instance. */
@Global()
@Module({ providers: [SharedRedis, SharedLimiters], exports: [SharedRedis, SharedLimiters] })
export class RedisModule {}
