import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { ListResponse } from './pagination';

/** Copies a {@link ListResponse}'s headers onto the response, so controllers stay free of `@Res()`. */
@Injectable()
export class ListResponseInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof ListResponse)) return result;
        const res = context.switchToHttp().getResponse<Response>();
        for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
        return result.body;
      }),
    );
  }
}
