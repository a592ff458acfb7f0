import { createHash } from 'node:crypto';

/** One stored 200 answer: what the client got, and the content version it was computed at. */
export interface CachedAnswer {
  version: string;
  /** The route template, for metrics of answers that never reach the router. */
  route: string;
  headers: [string, string][];
  body: Buffer;
  etag: string;
}

/** A weak validator of the body, the same for every instance that computes the same bytes. */
export function weakEtagOf(body: Buffer): string {
  return `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Memory an answer holds, for the cache's byte budget. */
export function sizeOf(key: string, answer: CachedAnswer): number {
  return key.length * 2 + answer.body.length + answer.headers.reduce((n, [k, v]) => n + k.length + v.length, 64);
}
