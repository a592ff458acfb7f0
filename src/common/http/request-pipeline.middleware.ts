import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import { resolveLanguage } from '../i18n/language';
import { NAMESPACE } from './namespace';
import './request.types';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Reads the optional language segment (`/de/cal/events/v1/...`), removes it from the URL before routing,
 * and records the language and the base of this request's REST URLs.
 */
export function requestContextMiddleware(options: { prefix: string; publicUrl?: string }): RequestHandler {
  const pattern = new RegExp(
    `^${escapeRegExp(options.prefix)}/([A-Za-z]{2}(?:[-_][A-Za-z]{2})?)(?=/${escapeRegExp(NAMESPACE)}(?:[/?#]|$))`,
  );
  return (req: Request, _res: Response, next: NextFunction) => {
    const match = pattern.exec(req.url);
    let segment = '';
    if (match) {
      segment = `/${match[1]}`;
      req.url = options.prefix + req.url.slice(match[0].length);
    }
    req.language = resolveLanguage(match?.[1]);
    const origin = options.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    req.siteUrl = origin.replace(/\/$/, '');
    req.restBase = `${req.siteUrl}${options.prefix}${segment}`;
    next();
  };
}

const ACCEPTED_TYPES = ['application/json', 'application/*+json', 'application/x-www-form-urlencoded'];

/** A body in any other format than JSON or a form is refused with 415 before parsing. */
export const rejectUnsupportedMediaType: RequestHandler = (req, _res, next) => {
  const hasBody = req.is(ACCEPTED_TYPES) !== null;
  if (hasBody && req.is(ACCEPTED_TYPES) === false) {
    next(new DomainError('unsupported_media_type'));
    return;
  }
  next();
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Merges parameters the way behaviour.md §1 orders them (JSON > form > query): writes read the merged
 * set from the body, reads and deletes from the query. A JSON body that is not an object is refused.
 */
export const mergeRequestParameters: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  if (body !== undefined && !isPlainObject(body)) {
    next(new DomainError('invalid_json'));
    return;
  }
  const query = req.query as Record<string, unknown>;
  if (['POST', 'PUT', 'PATCH'].includes(req.method)) {
    req.body = { ...query, ...(body ?? {}) };
  } else if (body && Object.keys(body).length > 0) {
    // Express 5 defines `query` as a getter; an own property shadows it for this request.
    Object.defineProperty(req, 'query', {
      value: { ...query, ...body },
      writable: true,
      configurable: true,
      enumerable: true,
    });
  }
  next();
};
