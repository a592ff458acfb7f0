import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthUser } from '../../auth/auth-user';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/language';
import { NAMESPACE, TEC_NAMESPACE } from './namespace';
import './request.types';
import { writeConditionsOf, type WriteConditions } from './write-conditions';

/** The wire dialects a request is answered in: the service's own, and the TEC-compatible alias's. */
export const DIALECTS = ['cal', 'tec'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** What a service needs to know about the request it answers, without depending on Express. */
export interface RequestContext {
  readonly kind: 'request-context';
  /** The authenticated caller, or null for anonymous requests. */
  user: AuthUser | null;
  language: Language;
  /** Origin plus API prefix (and language segment), e.g. `https://cal.example.org/api`. */
  restBase: string;
  /** Origin of the site, e.g. `https://cal.example.org`: permalinks and global ids. */
  siteUrl: string;
  /**
   * The host of global ids: the site's recorded identity (SiteIdentity), else `siteUrl`'s host (parsed when
   * absent). The event documents' template sets it too.
   */
  siteHost?: string;
  /** `restBase` plus the namespace: the root of every resource URL. */
  namespaceUrl: string;
  /**
   * `tec` for requests through the TEC-compatible alias: names on the wire are the reference's
   * (`tribe/events/v1`, `tribe_events_cat`).
   */
  dialect: Dialect;
  requestId: string;
  /** The client's address (behind `TRUST_PROXY`, the forwarded one): the key of per-client limits. */
  clientAddress: string;
  /** `If-Match` / `If-Unmodified-Since` of a write; absent or null for unconditional ones. */
  conditions?: WriteConditions | null;
}

function requestIdOf(req: Request): string {
  const id = (req as Request & { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}

export function requestContextOf(req: Request): RequestContext {
  const restBase = req.restBase ?? '';
  return {
    kind: 'request-context',
    user: req.user ?? null,
    language: req.language ?? DEFAULT_LANGUAGE,
    restBase,
    siteUrl: req.siteUrl ?? restBase,
    ...(req.siteHost !== undefined ? { siteHost: req.siteHost } : {}),
    namespaceUrl: `${restBase}/${req.tecAlias ? TEC_NAMESPACE : NAMESPACE}`,
    dialect: req.tecAlias ? 'tec' : 'cal',
    requestId: requestIdOf(req),
    clientAddress: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    conditions: req.method === 'GET' || req.method === 'HEAD' ? null : writeConditionsOf(req.headers),
  };
}

export function isRequestContext(value: unknown): value is RequestContext {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'request-context';
}

/** Injects the {@link RequestContext} into a controller method. */
export const Ctx = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestContext =>
  requestContextOf(ctx.switchToHttp().getRequest<Request>()),
);
