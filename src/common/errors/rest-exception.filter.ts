import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { requestContextOf } from '../http/request-context';
import { redactUrl } from '../logging/logger';
import { formatMessage, type Language } from '../i18n/language';
import { RequestValidationError } from '../validation/request-validation.error';
import { mainReasons, translateReason } from '../validation/validation-messages';
import { DomainError, errorMessage } from './domain-error';
import { MAX_FORM_PARAMETERS } from '../http/request-pipeline.middleware';
import { translateDriverError } from './driver-errors';
import { ERROR_MESSAGES } from './error-messages';
import type { ErrorKey } from './error-specs';

export interface ErrorBody {
  code: string;
  message: string;
  data: { status: number; request_id: string; [key: string]: unknown };
}

const STATUS_KEYS: Record<number, ErrorKey> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'no_route',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'service_unavailable',
};

/** body-parser's error types, carried as the cause of the HttpException Nest makes of them. */
const BODY_PARSER_KEYS: Record<string, ErrorKey> = {
  'entity.parse.failed': 'invalid_json',
  'entity.too.large': 'payload_too_large',
  'encoding.unsupported': 'unsupported_media_type',
  'charset.unsupported': 'unsupported_media_type',
  'parameters.too.many': 'too_many_parameters',
};

const BASIC_CHALLENGE = 'Basic realm="cal/events/v1", charset="UTF-8"';

/**
 * The one place a failed request becomes a response: behaviour.md §2's body in the caller's language,
 * with the request id. Unexpected errors are logged with their stack and answered with a generic 500.
 */
@Catch()
export class RestExceptionFilter implements ExceptionFilter {
  /** @param bodyLimitBytes `BODY_LIMIT_BYTES`, which a 413 states (a client cannot guess it). */
  constructor(
    private readonly logger: Logger,
    private readonly bodyLimitBytes?: number,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const ctx = requestContextOf(req);
    const body = this.toBody(exception, ctx.language, ctx.requestId);
    const status = body.data.status;
    if (status >= 500 && !(exception instanceof DomainError && exception.refusal)) {
      this.logger.error(
        { err: exception, requestId: ctx.requestId, url: redactUrl(req.originalUrl) },
        'request failed',
      );
    } else {
      this.logger.debug({ code: body.code, requestId: ctx.requestId }, 'request refused');
    }
    if (res.headersSent) return;
    if (exception instanceof DomainError) {
      for (const [name, value] of Object.entries(exception.options.headers ?? {})) res.setHeader(name, value);
    }
    // A 401 names the scheme that would pass (RFC 9110 §11.6.1): HTTP Basic with an application password.
    if (status === 401 && !res.hasHeader('WWW-Authenticate')) res.setHeader('WWW-Authenticate', BASIC_CHALLENGE);
    res.status(status).json(body);
  }

  toBody(exception: unknown, language: Language, requestId: string): ErrorBody {
    if (exception instanceof RequestValidationError) return this.validationBody(exception, language, requestId);
    const domain = this.toDomainError(exception);
    const message = errorMessage(domain, language);
    return {
      code: domain.code,
      message,
      data: { status: domain.status, ...(domain.options.data ?? {}), request_id: requestId },
    };
  }

  private toDomainError(exception: unknown): DomainError {
    if (exception instanceof DomainError) return exception;
    if (exception instanceof HttpException) {
      const cause = exception.cause as { type?: unknown } | undefined;
      const parserKey = typeof cause?.type === 'string' ? BODY_PARSER_KEYS[cause.type] : undefined;
      if (parserKey === 'too_many_parameters') {
        const limit = MAX_FORM_PARAMETERS;
        return new DomainError(parserKey, { args: { limit }, data: { limit_parameters: limit } });
      }
      if (parserKey) return this.withLimit(new DomainError(parserKey));
      const status = exception.getStatus();
      if (status === 400) return new DomainError('invalid_param', { data: { params: {} } });
      const key = STATUS_KEYS[status];
      if (key) return this.withLimit(new DomainError(key));
      return status >= 500 ? new DomainError('internal') : new DomainError('invalid_param');
    }
    return translateDriverError(exception) ?? new DomainError('internal');
  }

  /** A 413 for the body's size says what the limit is. */
  private withLimit(error: DomainError): DomainError {
    if (error.key !== 'payload_too_large') return error;
    const limit = this.bodyLimitBytes;
    return limit === undefined
      ? error
      : new DomainError('payload_too_large', { args: { limit }, data: { limit_bytes: limit } });
  }

  private validationBody(error: RequestValidationError, language: Language, requestId: string): ErrorBody {
    const missing = error.missing;
    if (missing.length > 0) {
      const names = missing.map((p) => p.name);
      return {
        code: 'rest_missing_callback_param',
        message: formatMessage(ERROR_MESSAGES[language].missing_param, language, { params: names.join(', ') }),
        data: { status: 400, params: names, request_id: requestId },
      };
    }
    const params: Record<string, string> = {};
    for (const problem of error.problems) {
      // Two validators of one field may give the same reason (a list's each-item and whole-list rules).
      const reasons = mainReasons(problem.reasons).map((r) => translateReason(r, language));
      params[problem.name] = [...new Set(reasons)].join('; ');
    }
    return {
      code: 'rest_invalid_param',
      message: formatMessage(ERROR_MESSAGES[language].invalid_param, language, {
        params: Object.keys(params).join(', '),
      }),
      data: { status: 400, params, request_id: requestId },
    };
  }
}
