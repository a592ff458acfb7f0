import type { LoggerService } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { LogLevel } from '../../config/env.schema';

export function createRootLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  });
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a caller's `x-request-id` when it is sane, else makes one; echoes it on the response. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/** Access log and request ids. Failures are logged by the exception filter, not here. */
export function createHttpLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: requestIdFor,
    customLogLevel: () => 'info',
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

/** Nest's own log lines, through the same pino instance. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: unknown): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: unknown, context?: unknown): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: unknown): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: unknown): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: unknown): void {
    this.logger.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: unknown): void {
    this.logger.fatal({ context }, String(message));
  }
}
