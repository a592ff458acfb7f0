import type { LoggerService } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import pinoPretty from 'pino-pretty';
import type { LogFormat, LogLevel } from '../../config/env.schema';

const SECRET_FIELDS = ['password', 'passwordHash', 'password_hash', 'authorization', 'cookie', 'secret', 'token'];

/**
 * Where lines go without a given destination: JSON on stdout, or with `pretty` (and `auto` on a terminal)
 * short human lines: time, level, `[context]`, a request's method, URL and status, the message; the
 * fields a collector reads (the start-up summary's, a request's headers) are left out, an error's stack is
 * kept. Synchronous, so a line is out before a failed start exits.
 */
function defaultDestination(format: LogFormat): pino.DestinationStream | undefined {
  if (format === 'json' || (format === 'auto' && !process.stdout.isTTY)) return undefined;
  return pinoPretty({
    sync: true,
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,context,startup,req,res,responseTime,requestId,problems',
    messageFormat: '{if context}[{context}] {end}{if req.method}{req.method} {req.url} {res.statusCode} {end}{msg}',
  });
}

/** Logs stay free of secrets: credentials, passwords and the values bound to SQL statements. */
export function createRootLogger(
  level: LogLevel,
  destination?: pino.DestinationStream,
  format: LogFormat = 'json',
): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
        ],
        censor: '[redacted]',
      },
      serializers: { err: serializeError },
    },
    destination ?? defaultDestination(format),
  );
}

/** `?password=…` and the like, with the value replaced (event passwords arrive as query parameters). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:password|token|secret)(?:\[\d*\]|%5B\d*%5D)?=)[^&#]*/gi, '$1[redacted]');
}

interface DriverErrorLike {
  name?: string;
  message?: string;
  code?: unknown;
  errno?: unknown;
  query?: unknown;
  stack?: string;
  sqlMessage?: unknown;
  driverError?: { code?: unknown; errno?: unknown; sqlMessage?: unknown };
}

/**
 * Errors as logged: a database error keeps its code and the statement without the bound values (the
 * values may be passwords or personal data); anything else, a programming error, keeps its stack.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const e = error as DriverErrorLike;
  const driver = e.driverError ?? (e.errno !== undefined || typeof e.code === 'string' ? e : undefined);
  if (driver) {
    return {
      type: e.name ?? 'Error',
      code: driver.code,
      errno: driver.errno,
      message: typeof driver.sqlMessage === 'string' ? driver.sqlMessage : e.message,
      query: typeof e.query === 'string' ? e.query.slice(0, 2000) : undefined,
    };
  }
  return { type: e.name ?? 'Error', message: e.message, stack: e.stack };
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a caller's `x-request-id` when it is sane, else makes one; echoes it on the response. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/**
 * Access log and request ids. Failures are logged by the exception filter, not here. Below `info` no
 * access line would be written, so only the request id is kept: pino-http's per-request child logger
 * and serialisers cost more than a cached answer itself.
 */
export function createHttpLogger(logger: Logger): HttpLogger | RequestHandler {
  if (!logger.isLevelEnabled('info')) {
    const requestIdOnly: RequestHandler = (req, res, next) => {
      (req as IncomingMessage & { id?: string }).id = requestIdFor(req, res);
      next();
    };
    return requestIdOnly;
  }
  return pinoHttp({
    logger,
    genReqId: requestIdFor,
    customLogLevel: () => 'info',
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

/**
 * Nest's start-up chatter (a line per module and per route) is only for `debug`: at `info` an operator
 * sees the start-up summary, not ninety lines of framework.
 */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** `logger.log({ msg, ...fields })` keeps its fields as JSON; anything else becomes the message. */
function split(message: unknown): [Record<string, unknown>, string] {
  if (typeof message === 'object' && message !== null && 'msg' in message) {
    const { msg, ...fields } = message;
    return [fields, String(msg)];
  }
  return [{}, String(message)];
}

/** Nest's own log lines, through the same pino instance. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: unknown): void {
    const [fields, msg] = split(message);
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context)) this.logger.debug({ context, ...fields }, msg);
    else this.logger.info({ context, ...fields }, msg);
  }
  error(message: unknown, trace?: unknown, context?: unknown): void {
    const [fields, msg] = split(message);
    // TypeOrmModule's only error lines are its connection retries, which name the cause: a warning while
    // tries remain (the start may yet succeed; a failed one ends with a fatal line), without the driver's
    // stack, which would repeat on each of them and tell an operator nothing.
    if (context === 'TypeOrmModule') this.logger.warn({ context, ...fields }, msg);
    // Nest's ExceptionHandler logs a failure of NestFactory.create and rethrows it (abortOnError: false);
    // the start-up reports it once, with its hint (main.ts), so the same failure is not logged twice.
    else if (context === 'ExceptionHandler') return;
    // Likewise `listen()`'s own line for a port in use: main.ts reports it with what to do.
    else if (context === 'NestApplication' && typeof message === 'string' && message.startsWith('Error: listen'))
      return;
    else this.logger.error({ context, trace, ...fields }, msg);
  }
  warn(message: unknown, context?: unknown): void {
    const [fields, msg] = split(message);
    this.logger.warn({ context, ...fields }, msg);
  }
  debug(message: unknown, context?: unknown): void {
    const [fields, msg] = split(message);
    this.logger.debug({ context, ...fields }, msg);
  }
  verbose(message: unknown, context?: unknown): void {
    const [fields, msg] = split(message);
    this.logger.trace({ context, ...fields }, msg);
  }
  fatal(message: unknown, context?: unknown): void {
    const [fields, msg] = split(message);
    this.logger.fatal({ context, ...fields }, msg);
  }
}
