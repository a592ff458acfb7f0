import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, refuseOutboundUrl } from '../../../common/net/outbound-url-guard';
import { ImportError } from '../import-summary';

/** Why a source could not be read; each kind has its own message in a run's report. */
export type SourceFailure = 'refused' | 'timeout' | 'too-large' | 'status' | 'network' | 'redirects' | 'content';

export class SourceFetchError extends ImportError {
  constructor(
    readonly kind: SourceFailure,
    message: string,
    /** The HTTP status of a `status` failure. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchOptions {
  headers?: Record<string, string>;
  /** Null: any address (the operator's CLI); else the SSRF guard, checked per redirect and at connect time. */
  guard: { allowPrivate: boolean; allowSetting: string } | null;
  timeoutMs: number;
  maxBytes: number;
  /** Ends the request at once (the run was cancelled). */
  signal?: AbortSignal;
  /** What the last fetch answered: a 304 then says `notModified` with no text. */
  conditional?: { etag?: string | null; lastModified?: string | null };
}

export interface FetchedSource {
  /** Where the text came from, after redirects. */
  url: string;
  status: number;
  notModified: boolean;
  headers: Record<string, string>;
  /** The body as it came: a large feed goes on to its parse's worker thread without a copy as text. */
  bytes: Buffer;
  /** SHA-256 of `bytes`, hashed chunk by chunk as they arrived (no long hash of a large body at the end). */
  sha256: string;
  /** The body read as UTF-8. */
  readonly text: string;
}

/** What one request answered, its body read. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  sha256: string;
}

function fetched(answer: RawAnswer, url: string, notModified: boolean): FetchedSource {
  return {
    ...answer,
    url,
    notModified,
    get text() {
      return answer.bytes.toString('utf8');
    },
  };
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a source: redirects followed (at most five, each re-checked by the guard), the body bounded in
 * bytes and the whole in time, a conditional GET when the last answer's validators are given. Failures are
 * `SourceFetchError`s whose kind and message say what went wrong; a status other than 2xx or 304 is one.
 */
export async function fetchSource(url: string, options: FetchOptions): Promise<FetchedSource> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const deadline = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let target = url;
  let headers = { ...options.headers };
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (options.guard) {
      const refused = await refuseOutboundUrl(target, options.guard.allowPrivate, options.guard.allowSetting);
      if (refused) throw new SourceFetchError('refused', `${target} ${refused}`);
    }
    const answer = await get(target, headers, options, deadline).catch((error: unknown) => {
      // A connection the server dropped as the request went out (ECONNRESET): a GET is safe to send again.
      if (error instanceof SourceFetchError && error.kind === 'network' && error.message.includes('ECONNRESET'))
        return get(target, headers, options, deadline);
      throw error;
    });
    if (REDIRECTS.has(answer.status) && answer.headers.location) {
      const next = new URL(answer.headers.location, target).toString();
      // Credentials stay with the origin they were given for.
      if (new URL(next).origin !== new URL(target).origin) headers = withoutAuthorization(headers);
      target = next;
      continue;
    }
    if (answer.status === 304) return fetched({ ...answer, bytes: Buffer.alloc(0) }, target, true);
    if (answer.status < 200 || answer.status > 299)
      throw new SourceFetchError('status', `${target} answered ${answer.status}`, answer.status);
    return fetched(answer, target, false);
  }
  throw new SourceFetchError('redirects', `${url} redirects more than ${MAX_REDIRECTS} times`);
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

function get(
  target: string,
  headers: Record<string, string>,
  options: FetchOptions,
  deadline: AbortSignal,
): Promise<RawAnswer> {
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new SourceFetchError('refused', `${target} is not an http(s) URL`));
  const conditional: Record<string, string> = {};
  if (options.conditional?.etag) conditional['If-None-Match'] = options.conditional.etag;
  if (options.conditional?.lastModified) conditional['If-Modified-Since'] = options.conditional.lastModified;
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        headers: { 'User-Agent': 'cal-events-service import', ...conditional, ...headers },
        ...(options.guard ? { lookup: guardedLookup(options.guard.allowPrivate) } : {}),
        // A connection of its own: a kept-alive one the server closes while a page is being imported would
        // be reset as the next request goes out on it.
        agent: false,
        signal: deadline,
      },
      (response) => {
        readBody(response, target, options).then(resolve, reject);
      },
    );
    request.on('error', (error: Error & { code?: string }) => reject(failureOf(error, target, options.timeoutMs)));
    request.end();
  });
}

function readBody(
  response: IncomingMessage,
  target: string,
  { maxBytes, timeoutMs }: FetchOptions,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const hash = createHash('sha256');
    let bytes = 0;
    response.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        response.destroy();
        reject(new SourceFetchError('too-large', `${target} sent more than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
      hash.update(chunk);
    });
    response.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      resolve({ status: response.statusCode ?? 0, headers, bytes: Buffer.concat(chunks), sha256: hash.digest('hex') });
    });
    response.on('error', (error: Error & { code?: string }) => reject(failureOf(error, target, timeoutMs)));
  });
}

function failureOf(error: Error & { code?: string }, target: string, timeoutMs: number): SourceFetchError {
  if (error instanceof SourceFetchError) return error;
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR')
    return new SourceFetchError('timeout', `${target} did not answer within ${Math.round(timeoutMs / 1000)} s`);
  if (error.code === 'EADDRNOTPUBLIC') return new SourceFetchError('refused', `${target}: ${error.message}`);
  return new SourceFetchError('network', `${target}: ${error.code ? `${error.code} ` : ''}${error.message}`);
}
