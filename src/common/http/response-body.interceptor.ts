import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { ListResponse } from '../pagination/pagination';
import { PreparedJson } from './prepared-json';

/**
 * Turns what a handler returned into the body Express sends, so controllers stay free of `@Res()`: a
 * {@link ListResponse}'s headers go onto the response, a {@link PreparedJson} is sent as its text.
 */
@Injectable()
export class ResponseBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof PreparedJson) {
          // Express's `send` keeps a Content-Type already set and adds the charset, as `res.json` does.
          context.switchToHttp().getResponse<Response>().setHeader('Content-Type', 'application/json');
          return result.json;
        }
        if (!(result instanceof ListResponse)) return result;
        const res = context.switchToHttp().getResponse<Response>();
        for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
        return result.body;
      }),
    );
  }
}
