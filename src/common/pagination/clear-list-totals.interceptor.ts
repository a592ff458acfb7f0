import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { tap, type Observable } from 'rxjs';
import { ListTotalsCache } from './list-totals.cache';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** After any successful write, cached list totals may be wrong: drop them all (writes are rare, reads many). */
@Injectable()
export class ClearListTotalsInterceptor implements NestInterceptor {
  constructor(private readonly totals: ListTotalsCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const method = context.switchToHttp().getRequest<Request>().method;
    return WRITES.has(method) ? next.handle().pipe(tap(() => this.totals.clear())) : next.handle();
  }
}
