import { Global, Module } from '@nestjs/common';
import { ResponseCache } from './response-cache';
import { ResponseCacheInterceptor } from './response-cache.interceptor';

/** Exact caching of read answers by content version (docs/performance.md). */
@Global()
@Module({ providers: [ResponseCache, ResponseCacheInterceptor], exports: [ResponseCache, ResponseCacheInterceptor] })
export class ResponseCacheModule {}
