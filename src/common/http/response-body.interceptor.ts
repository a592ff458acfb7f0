import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { ListResponse } from '../pagination/pagination';
import { AcceptedResponse } from './accepted-response';
import { PreparedJson } from './prepared-json';

/**
 * Turns what a handler returned into the body Express sends, so controllers stay free of `@Res()`: a
 * {@link ListResponse}'s headers go onto the response, a {@link PreparedJson} (a record, or a list's
 * whole body) is sent as its text, an {@link AcceptedResponse} as a 202 with its `Location`.
 */
@Injectable()
export class ResponseBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        const res = () => context.switchToHttp().getResponse<Response>();
        if (result instanceof AcceptedResponse) {
          res().status(202).setHeader('Location', result.location);
          return result.body;
        }
        if (result instanceof ListResponse) {
          for (const [name, value] of Object.entries(result.headers)) res().setHeader(name, value);
          result = result.body;
        }
        if (!(result instanceof PreparedJson)) return result;
        // What `res.json` sets (Express's `send` adds no charset to bytes, which a list's weak ETag sends).
        res().setHeader('Content-Type', 'application/json; charset=utf-8');
        return result.json;
      }),
    );
  }
}
