import { fetchSource, SourceFetchError, type FetchOptions } from '../fetch/source-fetch';
import { SourceDigest, type SourceReadHook } from '../source-digest';

/** The REST namespace a TEC site answers under, below its WordPress REST root. */
const TEC_ROOT = '/wp-json/tribe/events/v1';

/** One page of a TEC list: its records and how many pages the list has. */
export interface TecPage {
  items: Record<string, unknown>[];
  totalPages: number;
}

/**
 * Reads a site's TEC REST API (`/wp-json/tribe/events/v1`): JSON lists page by page, as the credentials
 * given may see them. What a TEC site sends is trusted no more than any input: an answer that is not a JSON
 * list of the kind asked for is a `SourceFetchError` of kind `content`.
 */
export class TecSite {
  /** The site's address as given, without the REST path: `https://example.org`. */
  readonly siteUrl: string;
  /** Whether the reading has credentials: WordPress shows them drafts, private events and passwords. */
  readonly signedIn: boolean;
  private readonly headers: Record<string, string>;
  /** Child resources (`tickets`) the site answered 404 for: it has none of them. */
  private readonly withoutChildren = new Set<string>();
  /** What this reading has read so far, every list in order (see `SourceDigest`). */
  private readonly digest = new SourceDigest();

  constructor(
    site: string,
    credentials: { user: string; password: string } | null,
    private readonly options: Omit<FetchOptions, 'headers' | 'conditional'>,
    private readonly maxPages = Number.MAX_SAFE_INTEGER,
    private readonly onRead?: SourceReadHook,
  ) {
    this.siteUrl = siteUrlOf(site);
    this.headers = { Accept: 'application/json' };
    this.signedIn = credentials !== null;
    if (credentials)
      this.headers.Authorization = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  }

  /**
   * Every page of the list at `restBase` (`events`, `venues`), in order; `query` as the site takes it. The
   * page count the site reports is trusted no further than its pages bear out: a page shorter than the
   * first ends the list, and past `maxPages` (`IMPORTS_MAX_PAGES`) the list is refused as too long, so a
   * site that claims a billion pages costs at most that many requests.
   */
  async *pages(restBase: string, query: Record<string, string>, key = restBase): AsyncGenerator<TecPage> {
    let fullPage = 0;
    for (let page = 1, totalPages = 1; page <= totalPages; page++) {
      if (page > this.maxPages)
        throw new SourceFetchError(
          'content',
          `${this.siteUrl} lists more than ${this.maxPages} pages of ${restBase} (IMPORTS_MAX_PAGES): not imported whole`,
        );
      this.options.signal?.throwIfAborted();
      const params = new URLSearchParams(query);
      if (page > 1) params.set('page', String(page));
      const url = `${this.siteUrl}${TEC_ROOT}/${restBase}${params.size > 0 ? `?${params.toString()}` : ''}`;
      const answer = await this.jsonWithHeaders(url);
      const body = answer.body;
      const items = isRecord(body) ? body[key] : undefined;
      // An empty list is `{"events": []}` on TEC 6, but older versions answer an error code for a page past the end.
      if (!Array.isArray(items) || !items.every(isRecord))
        throw new SourceFetchError('content', `${url} answered JSON without a list of ${key}`);
      const header = Number(answer.headers['x-tec-totalpages'] ?? answer.headers['x-wp-totalpages']);
      const inBody = isRecord(body) ? Number(body.total_pages) : NaN;
      totalPages = Number.isInteger(header) && header > 0 ? header : Number.isInteger(inBody) ? inBody : page;
      if (page === 1) fullPage = items.length;
      // An empty page, or one shorter than a full one, is the last whatever the count says.
      if (items.length === 0 || items.length < fullPage) totalPages = page;
      yield { items, totalPages };
    }
  }

  /**
   * The records of a module's child resource of an event (`events/{id}/tickets`), as another instance of this
   * service answers them; null where the source has no such resource (a TEC site, or an instance without the
   * module: 404), so the event's records here are left alone.
   */
  async childrenOf(eventId: number, path: string): Promise<Record<string, unknown>[] | null> {
    // Asked once of a site without the resource (any TEC site): not one more request per event after that.
    if (this.withoutChildren.has(path)) return null;
    const records: Record<string, unknown>[] = [];
    try {
      for await (const page of this.pages(`events/${eventId}/${path}`, { per_page: '100' }, path))
        records.push(...page.items);
    } catch (error) {
      if (error instanceof SourceFetchError && error.status === 404 && records.length === 0) {
        this.withoutChildren.add(path);
        return null;
      }
      throw error;
    }
    return records;
  }

  /**
   * One event by its id (`events/{id}`), with its password when one is known: the record, or why there is
   * none (`404`: no such event there; `403`: there, but not to these credentials, or protected).
   */
  async event(id: number, password?: string): Promise<{ record: Record<string, unknown> } | { status: number }> {
    const query = password === undefined ? '' : `?${new URLSearchParams({ password }).toString()}`;
    try {
      const body = await this.json(`${this.siteUrl}${TEC_ROOT}/events/${id}${query}`);
      if (!isRecord(body) || !Number.isInteger(body.id))
        throw new SourceFetchError(
          'content',
          `${this.siteUrl}${TEC_ROOT}/events/${id} answered JSON that is not an event`,
        );
      return { record: body };
    } catch (error) {
      if (
        error instanceof SourceFetchError &&
        error.kind === 'status' &&
        error.status !== undefined &&
        error.status < 500
      )
        return { status: error.status };
      throw error;
    }
  }

  /**
   * A JSON answer of the site at `url` (below its address), with its headers; what was read goes into the
   * reading's digest. A status that is not 2xx is a `SourceFetchError` of kind `status`.
   */
  async json(url: string): Promise<unknown> {
    return (await this.jsonWithHeaders(url)).body;
  }

  async jsonWithHeaders(url: string): Promise<{ body: unknown; headers: Record<string, string> }> {
    this.options.signal?.throwIfAborted();
    const answer = await fetchSource(url, { ...this.options, headers: this.headers });
    await this.onRead?.(this.digest.add(answer.sha256));
    return { body: jsonOf(answer.text, url), headers: answer.headers };
  }
}

/** `https://example.org/wp-json/tribe/events/v1/` and `https://example.org/` both name `https://example.org`. */
export function siteUrlOf(site: string): string {
  let url: URL;
  try {
    url = new URL(site);
  } catch {
    throw new SourceFetchError('refused', `${site} is not a URL`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  const at = path.indexOf(TEC_ROOT.replace(/^\//, '/'));
  url.pathname = at === -1 ? path : path.slice(0, at);
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

function jsonOf(text: string, url: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const looksHtml = /^\s*</.test(text);
    throw new SourceFetchError(
      'content',
      `${url} answered ${looksHtml ? 'an HTML page' : 'text'}, not JSON: is it a site with The Events Calendar's REST API?`,
    );
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
