import { createHash } from 'node:crypto';
import etag from 'etag';

/** One stored 200 answer: what the client got, and the content version it was computed at. */
export interface CachedAnswer {
  version: string;
  /** The route template, for metrics of answers that never reach the router. */
  route: string;
  headers: [string, string][];
  body: Buffer;
  etag: string;
}

/**
 * A strong validator of the body: the same function Express uses for answers it validates itself
 * (`etag: 'strong'`), so a record's tag is the same whether or not the cache answered.
 */
export function strongEtagOf(body: Buffer | string): string {
  return etag(body, { weak: false });
}

/** A weak validator of the body, the same for every instance that computes the same bytes. */
export function weakEtagOf(body: Buffer | string): string {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return `W/"${length.toString(16)}-${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Memory an answer holds, for the cache's byte budget. */
export function sizeOf(key: string, answer: CachedAnswer): number {
  return key.length * 2 + answer.body.length + answer.headers.reduce((n, [k, v]) => n + k.length + v.length, 64);
}
