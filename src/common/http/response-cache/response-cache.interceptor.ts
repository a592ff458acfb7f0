import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, mergeMap, type Observable } from 'rxjs';
import { CACHED_READ, type CachedReadOptions } from './cached-read.decorator';
import { ResponseCache } from './response-cache';

/**
 * Records the answers of `@CachedRead` routes (the misses) and gives them their kind of `ETag`;
 * `ResponseCache.serve` answers the hits.
 */
@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly cache: ResponseCache,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get<CachedReadOptions | undefined>(CACHED_READ, context.getHandler());
    if (!options) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const template = (req.route as { path?: unknown } | undefined)?.path;
    const route = `${req.baseUrl}${typeof template === 'string' ? template : req.path}`;
    const validator = options.resource === undefined ? 'weak' : 'strong';
    if (!this.cache.enabled) {
      // Nothing to keep, nothing to wait for: a list's weak tag, and Express gives a record its strong one.
      if (validator === 'weak') this.cache.tagWeakly(http.getResponse<Response>());
      return next.handle();
    }
    return from(this.cache.record(req, http.getResponse<Response>(), route, validator)).pipe(
      mergeMap(() => next.handle()),
    );
  }
}
