import { Module } from '@nestjs/common';
import { ResponseCache } from './response-cache';
import { ResponseCacheInterceptor } from './response-cache.interceptor';

/**
 * Exact caching of read answers by content version (docs/performance.md). Not global: only the request
 * pipeline (app.setup.ts) uses it, and takes it from the application.
 */
@Module({ providers: [ResponseCache, ResponseCacheInterceptor], exports: [ResponseCache, ResponseCacheInterceptor] })
export class ResponseCacheModule {}
