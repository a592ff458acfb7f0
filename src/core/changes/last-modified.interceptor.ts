import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { from, map, mergeMap, of, type Observable } from 'rxjs';
import { Clock } from '../../common/dates/clock';
import { CACHED_READ, type CachedReadOptions } from '../../common/http/response-cache/cached-read.decorator';
import { ChangeHeads } from './change-heads';
import { rememberedChangedUtc } from './known-changed-time';

const isRecordObject = (value: unknown): value is { id: number; modified_utc?: unknown } =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number';

/**
 * `Last-Modified` of single-resource reads (`@CachedRead({ resource })`): when the record or anything it
 * embeds last changed (`change_heads`), else its own `modified_utc`. Left out while that is the current
 * second: HTTP dates have whole seconds, and a second write within it would not move the date.
 */
@Injectable()
export class LastModifiedInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly heads: ChangeHeads,
    private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const resource = this.reflector.get<CachedReadOptions | undefined>(CACHED_READ, context.getHandler())?.resource;
    if (resource === undefined) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      mergeMap((value: unknown) => {
        if (!isRecordObject(value)) return of(value);
        const remembered = rememberedChangedUtc(value);
        // Most reads said when their record changed: no query, no promise.
        if (remembered !== undefined) return of(this.withLastModified(res, value, remembered));
        return from(this.heads.changedUtc(resource, value.id)).pipe(
          map((head) => this.withLastModified(res, value, head)),
        );
      }),
    );
  }

  private withLastModified<T extends { modified_utc?: unknown }>(res: Response, value: T, head: string | null): T {
    const modified = head ?? (typeof value.modified_utc === 'string' ? value.modified_utc : null);
    if (modified !== null && modified < this.clock.nowSqlUtc()) {
      res.setHeader('Last-Modified', new Date(`${modified.replace(' ', 'T')}Z`).toUTCString());
    }
    return value;
  }
}
