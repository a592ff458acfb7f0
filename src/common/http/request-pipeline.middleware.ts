import { reason } from '../validation/validation-messages';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import { LANGUAGES, resolveLanguage } from '../i18n/language';
import { RequestValidationError } from '../validation/request-validation.error';
import { NAMESPACE, TEC_NAMESPACE, TEC_REST_ROOT } from './namespace';
import './request.types';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A host name or IPv4/IPv6 literal with an optional port: what a `Host` header may hold. */
const HOST_PATTERN =
  /^(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Hosts already checked: a site answers a handful, and the pattern is the costliest step of a cached read. */
const checkedHosts = new Map<string, boolean>();

function isWellFormedHost(host: string): boolean {
  let ok = checkedHosts.get(host);
  if (ok === undefined) {
    ok = HOST_PATTERN.test(host);
    // Bounded: a client inventing hosts only fills it up to the limit, then pays the pattern each time.
    if (checkedHosts.size < 256) checkedHosts.set(host, ok);
  }
  return ok;
}

/**
 * The origin of this request's links. With `PUBLIC_URL` the header is never used; without it the
 * `Host` must be well-formed and, when `ALLOWED_HOSTS` is set, one of them, so a forged header cannot
 * put another site into the links a cache may keep.
 */
export function originOf(
  req: Request,
  options: { publicUrl?: string; allowedHosts: readonly string[] },
): string | null {
  if (options.publicUrl) return options.publicUrl;
  const host = req.get('host') ?? '';
  if (!isWellFormedHost(host)) return null;
  if (options.allowedHosts.length > 0 && !options.allowedHosts.includes(host.toLowerCase().replace(/:\d+$/, ''))) {
    return null;
  }
  return `${req.protocol}://${host}`;
}

/**
 * Reads the optional language segment (`/de/cal/events/v1/...`), removes it from the URL before routing,
 * and records the language and the base of this request's REST URLs.
 */
export function requestContextMiddleware(options: {
  prefix: string;
  publicUrl?: string;
  allowedHosts: readonly string[];
  /** Serve the API under `/wp-json/tribe/events/v1` too (TEC_COMPAT). */
  tecCompat: boolean;
  /** The recorded host of global ids (SiteIdentity), once known; null: the request's own. */
  globalIdHost?: () => string | null;
}): RequestHandler {
  const pattern = new RegExp(
    `^${escapeRegExp(options.prefix)}/([A-Za-z]{2}(?:[-_][A-Za-z]{2})?)(?=/${escapeRegExp(NAMESPACE)}(?:[/?#]|$))`,
  );
  const tecPath = `${options.prefix}/${TEC_REST_ROOT}/${TEC_NAMESPACE}`;
  const tecPattern = new RegExp(`^${escapeRegExp(tecPath)}(?=[/?#]|$)`);
  return (req: Request, _res: Response, next: NextFunction) => {
    const match = pattern.exec(req.url);
    let segment = '';
    if (match) {
      segment = `/${match[1]}`;
      req.url = options.prefix + req.url.slice(match[0].length);
    } else if (options.tecCompat && tecPattern.test(req.url)) {
      // The alias is routed as the namespace itself; links in the answer name the alias (RequestContext).
      req.url = `${options.prefix}/${NAMESPACE}${req.url.slice(tecPath.length)}`;
      req.tecAlias = true;
      segment = `/${TEC_REST_ROOT}`;
    }
    // The URL's segment wins; without one, the caller's Accept-Language (Express's negotiation, q-values and
    // all). Most callers send none: negotiating nothing would answer the first language at a parse's cost.
    const accepted = req.headers['accept-language'] ? req.acceptsLanguages(...LANGUAGES) || undefined : undefined;
    req.language = resolveLanguage(match ? match[1] : accepted);
    const origin = originOf(req, options);
    if (origin === null) {
      req.restBase = '';
      next(new DomainError('invalid_host'));
      return;
    }
    req.siteUrl = origin.replace(/\/$/, '');
    const identity = options.globalIdHost?.() ?? null;
    if (identity !== null) req.siteHost = identity;
    req.restBase = `${req.siteUrl}${options.prefix}${segment}`;
    next();
  };
}

const ACCEPTED_TYPES = ['application/json', 'application/*+json', 'application/x-www-form-urlencoded'];

/** A body in any other format than JSON or a form is refused with 415 before parsing. */
export const rejectUnsupportedMediaType: RequestHandler = (req, _res, next) => {
  // An empty body is no body, whatever its headers say (a DELETE from a client that always sends a type).
  const hasBody = req.headers['content-length'] !== '0' && req.is(ACCEPTED_TYPES) !== null;
  if (hasBody && req.is(ACCEPTED_TYPES) === false) {
    next(new DomainError('unsupported_media_type'));
    return;
  }
  next();
};

/** Fields a form-encoded body may have (body-parser's `parameterLimit`); more is a 413 that states it. */
export const MAX_FORM_PARAMETERS = 1000;

/** Deeper than any field of the API needs (an organizer object in a list is 3); the validators recurse. */
export const MAX_PARAMETER_DEPTH = 16;

/** How deeply objects and arrays nest in a parsed body, counted without recursion (and so without a stack limit). */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_PARAMETER_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Control characters, but tab, line feed and carriage return: C0, DEL and C1. No field of the API has a use
 * for one. NUL ends a bound string in SQLite's C API (`search=a%00` searched for `a` on one database and
 * `a\0` on the other); the others break iCalendar (RFC 5545 allows none in TEXT), XML and terminals.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * The first parameter whose name or text holds a control character (`CONTROL_CHARACTER`): its dotted name
 * and the character's code point, or null. Refused wherever it is, one rule for every parameter.
 */
export function parameterWithControlCharacter(value: unknown, path = ''): { name: string; codePoint: string } | null {
  const found = (text: string) => CONTROL_CHARACTER.exec(text)?.[0];
  const hex = (c: string) => c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [item, name] = stack.pop()!;
    if (typeof item === 'string') {
      const c = found(item);
      if (c !== undefined) return { name: name || '(body)', codePoint: hex(c) };
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      const childName = name === '' ? key : `${name}.${key}`;
      const c = found(key);
      if (c !== undefined) return { name: childName, codePoint: hex(c) };
      stack.push([child, childName]);
    }
  }
  return null;
}

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
  if (nestingDepth(body) > MAX_PARAMETER_DEPTH) {
    next(new DomainError('json_too_deep', { args: { max: MAX_PARAMETER_DEPTH } }));
    return;
  }
  const query = req.query as Record<string, unknown>;
  const control = parameterWithControlCharacter(query) ?? parameterWithControlCharacter(body);
  if (control !== null) {
    next(RequestValidationError.of({ [control.name]: reason('control_character', control.codePoint) }));
    return;
  }
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
