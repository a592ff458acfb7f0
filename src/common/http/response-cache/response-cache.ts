import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../../config/app-config';
import { ContentVersion } from '../../../database/content-version';
import { Clock } from '../../dates/clock';
import '../request.types';
import { sizeOf, strongEtagOf, weakEtagOf, type CachedAnswer } from './cached-answer';

/** Query parameters whose answer must never be reused: a protected event's password unlocks it for one caller. */
const UNCACHEABLE_PARAMETER = /(?:^|&)password=/;

/**
 * The answer's bytes in a buffer of their own: `Buffer.from` puts short strings in Node's shared 8 KB
 * pool, and a kept slice would keep its whole slab alive, beyond the cache's byte budget.
 */
function ownBytes(body: string | Buffer): Buffer {
  const bytes = Buffer.allocUnsafeSlow(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  if (typeof body === 'string') bytes.write(body);
  else body.copy(bytes);
  return bytes;
}

/**
 * Answers of `@CachedRead` routes, keyed by everything they depend on (caller, language, origin, path,
 * query, `Accept`, the minute) and valid while the content version they were computed at is current.
 * A write anywhere changes the version, so the next read on any instance computes afresh: exact, with
 * no time to live. The minute in the key bounds how long an answer that depends on "today" (the
 * default date window) can live.
 *
 * Hits are served by an Express middleware after authentication and before Nest's router, pipes and
 * handlers; misses are recorded by `ResponseCacheInterceptor` from the bytes the client received.
 */
@Injectable()
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedAnswer> | null;
  readonly counts = { hit: 0, miss: 0, bypass: 0 };

  constructor(
    config: AppConfig,
    private readonly version: ContentVersion,
    private readonly clock: Clock,
  ) {
    const maxSize = config.responseCacheBytes;
    this.entries = maxSize > 0 ? new LRUCache({ maxSize, sizeCalculation: (a, k) => sizeOf(k, a) }) : null;
  }

  get enabled(): boolean {
    return this.entries !== null;
  }

  /** The key of a request's answer, or null when it must not be cached. */
  keyOf(req: Request): string | null {
    const q = req.url.indexOf('?');
    const query =
      q < 0
        ? ''
        : req.url
            .slice(q + 1)
            .split('&')
            .sort()
            .join('&');
    if (UNCACHEABLE_PARAMETER.test(query)) return null;
    const caller = req.user ? `${req.user.id}:${req.user.role}` : '-';
    const minute = Math.floor(this.clock.now().getTime() / 60_000);
    return [minute, caller, req.language, req.restBase, req.path, query, req.headers.accept ?? ''].join('\n');
  }

  /** Serves a stored answer whose version is still current; everything else goes on to the router. */
  readonly serve: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (!this.entries || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const key = this.keyOf(req);
    const answer = key === null ? undefined : this.entries.get(key);
    if (!answer) return next();
    this.version.current(this.clock.nowSqlUtc()).then((snapshot) => {
      if (snapshot.volatile || snapshot.key !== answer.version) return next();
      this.counts.hit++;
      req.cachedRoute = answer.route;
      for (const [name, value] of answer.headers) res.setHeader(name, value);
      res.setHeader('ETag', answer.etag);
      // What Express's `send` would do, without its content-type and ETag work, which is already done.
      if (req.fresh) {
        res.statusCode = 304;
        res.removeHeader('Content-Type');
        res.end();
        return;
      }
      res.statusCode = 200;
      res.setHeader('Content-Length', answer.body.length);
      res.end(req.method === 'HEAD' ? undefined : answer.body);
    }, next);
  };

  /**
   * Before a cacheable route's handler runs: reads the version (before any data), then keeps the answer
   * the client receives, if it is a 200, under that version. `validator` is the kind of `ETag` it gets:
   * strong for single records, weak for lists, whether or not it is kept.
   */
  async record(req: Request, res: Response, route: string, validator: 'strong' | 'weak'): Promise<void> {
    const key = this.entries && req.method === 'GET' ? this.keyOf(req) : null;
    let snapshot = null;
    if (key !== null) {
      snapshot = await this.version.current(this.clock.nowSqlUtc());
      if (snapshot.volatile) {
        this.counts.bypass++;
        snapshot = null;
      } else {
        this.counts.miss++;
      }
    }
    const version = snapshot?.key;
    if (version === undefined || key === null) {
      // Express gives every other answer a strong tag of its own (`etag: 'strong'`).
      if (validator === 'weak') this.tagWeakly(res);
      return;
    }
    const tagOf = validator === 'strong' ? strongEtagOf : weakEtagOf;
    const before = new Set(res.getHeaderNames());
    onSentBytes(res, (body, send) => {
      const bytes = ownBytes(body);
      const answer: CachedAnswer = {
        version,
        route,
        headers: res
          .getHeaderNames()
          .filter((name) => !before.has(name))
          .map((name) => [name, String(res.getHeader(name))]),
        body: bytes,
        etag: tagOf(bytes),
      };
      res.setHeader('ETag', answer.etag);
      this.entries?.set(key, answer);
      return send(bytes);
    });
  }

  /** Gives a 200 answer a weak `ETag` as it is sent: a list's, when nothing is kept. */
  tagWeakly(res: Response): void {
    onSentBytes(res, (body, send) => {
      // Encoded once for the hash and the socket: a string would be measured, hashed and sent as UTF-8 apart.
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      res.setHeader('ETag', weakEtagOf(bytes));
      return send(bytes);
    });
  }
}

/** Runs `handle` on the bytes of a 200 answer as `res.send` gets them, once. */
function onSentBytes(res: Response, handle: (body: string | Buffer, send: Response['send']) => Response): void {
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    // Express's own `send` of an object comes back here with its JSON string.
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return send(body);
    res.send = send;
    return res.statusCode === 200 ? handle(body, send) : send(body);
  };
}
