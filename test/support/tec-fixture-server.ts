import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Jest runs from the repository root. */
export const TEC_FIXTURES = join(process.cwd(), 'test', 'fixtures', 'tec-6.17');

const WP_EVENTS = '/wp-json/wp/v2/tribe_events';
const EVENTS = '/wp-json/tribe/events/v1/events';
/** The start of the recorded lists of every date. */
const ALL_FROM = '2000-01-01 00:00:00';

interface RecordedRequest {
  file: string;
  path: string;
  query: Record<string, string>;
  role: 'anonymous' | 'admin';
}

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What the server does instead of answering a request whose key (`path?query`, page 1 without `page`) matches. */
export type Fault = 'html' | '500' | 'hang';

/**
 * The recorded TEC 6.17 site (test/fixtures/tec-6.17) on 127.0.0.1: each request answered with the recording
 * of the same path, query and role (Basic credentials: the administrator), `{base_url}` made this server's
 * address. The venue, organizer and term lists were recorded anonymously only; the site's are all published,
 * so an administrator gets the same. Anything not recorded is TEC's 404. `faults` break chosen requests.
 */
export class TecFixtureServer {
  readonly faults = new Map<string, Fault>();
  /**
   * Whether the site answers WordPress's own list of event posts (`/wp-json/wp/v2/tribe_events`), as a site
   * with TEC's block editor does. Not recorded: served from the manifest's seeded ids and statuses, with the
   * passwords the recorded password reads used, as WordPress answers it (see `wpEventPosts`).
   */
  wpIndex = true;
  /** Posts (events, venues, organizers) and terms deleted at the site since it was recorded: left out of every answer. */
  readonly gonePosts = new Set<number>();
  readonly goneTerms = new Set<number>();
  /** Every request: its key, its role and the user and password its Basic credentials gave. */
  readonly requests: { key: string; role: string; credentials?: string }[] = [];
  private server: Server | null = null;
  private waiters: { match: (key: string) => boolean; resolve: () => void }[] = [];

  /** Resolves once a request whose key `match`es has come (at once if one came already). */
  until(match: (key: string) => boolean): Promise<void> {
    if (this.requests.some((r) => match(r.key))) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
  private readonly recorded: RecordedRequest[];
  url = '';

  constructor() {
    this.recorded = (
      JSON.parse(readFileSync(join(TEC_FIXTURES, 'manifest.json'), 'utf8')) as { requests: RecordedRequest[] }
    ).requests;
  }

  /**
   * The recorded answer of a request, with this server's address in it. A list asked with an `end_date`
   * later than the recording's (TEC's default, two years ahead, as its `rest_url` shows) gets the recording:
   * every event of the site starts before that default, so a later end lists the same events.
   */
  answer(path: string, query: Record<string, string>, role: 'anonymous' | 'admin'): RecordedAnswer | null {
    if (path === EVENTS && query.start_date !== undefined && query.start_date !== ALL_FROM)
      return this.window(query, role);
    const { end_date: endDate, ...rest } = query;
    if (endDate !== undefined) {
      const recorded = this.answer(path, rest, role);
      const recordedEnd =
        recorded &&
        new URL(String((recorded.body as { rest_url?: string }).rest_url ?? '')).searchParams.get('end_date');
      return recordedEnd && endDate >= recordedEnd ? recorded : null;
    }
    const key = keyOf(path, query);
    const match = (r: RecordedRequest, as: string) => r.role === as && keyOf(r.path, r.query) === key;
    const found =
      this.recorded.find((r) => match(r, role)) ??
      (role === 'admin' && !path.endsWith('/events') ? this.recorded.find((r) => match(r, 'anonymous')) : undefined);
    if (!found) return null;
    const text = readFileSync(join(TEC_FIXTURES, found.file), 'utf8')
      .replaceAll('{base_url}', this.url)
      .replaceAll('{host}', new URL(this.url).host)
      .replaceAll('{hostname}', new URL(this.url).hostname);
    return this.withoutGone(JSON.parse(text) as RecordedAnswer);
  }

  /**
   * A recorded answer as the site answers after its deletions: a deleted event is 404, lists leave the
   * deleted records out, and events no longer embed them.
   */
  private withoutGone(answer: RecordedAnswer): RecordedAnswer {
    if (this.gonePosts.size === 0 && this.goneTerms.size === 0) return answer;
    type Item = Record<string, unknown>;
    const body = answer.body as Item;
    if (typeof body.id === 'number' && this.gonePosts.has(body.id)) return { ...answer, status: 404 };
    const kept = (items: unknown, gone: Set<number>) => (items as Item[]).filter((i) => !gone.has(Number(i.id)));
    const event = (e: Item): Item => ({
      ...e,
      venue: !Array.isArray(e.venue) && this.gonePosts.has(Number((e.venue as Item).id)) ? [] : e.venue,
      organizer: kept(e.organizer, this.gonePosts),
      categories: kept(e.categories, this.goneTerms),
      tags: kept(e.tags, this.goneTerms),
    });
    for (const key of ['events', 'venues', 'organizers', 'categories', 'tags'])
      if (Array.isArray(body[key])) {
        const items = kept(body[key], key === 'categories' || key === 'tags' ? this.goneTerms : this.gonePosts);
        body[key] = key === 'events' ? items.map(event) : items;
      }
    return typeof body.id === 'number' && 'venue' in body ? { ...answer, body: event(body) } : answer;
  }

  /**
   * A list of events in another window than the recorded ones: the recording of every date, its events that
   * end on or after `start_date` and start on or before `end_date` (TEC's reading of a window), paged anew.
   */
  private window(query: Record<string, string>, role: 'anonymous' | 'admin'): RecordedAnswer | null {
    const all: Record<string, unknown>[] = [];
    for (let page = 1; ; page++) {
      const answer = this.answer(EVENTS, { per_page: '50', start_date: ALL_FROM, page: String(page) }, role);
      if (!answer) return null;
      all.push(...(answer.body as { events: Record<string, unknown>[] }).events);
      if (page >= Number(answer.headers['x-tec-totalpages'])) break;
    }
    const from = query.start_date;
    const to = query.end_date ?? '9999-12-31 23:59:59';
    const events = all.filter((e) => String(e.end_date) >= from && String(e.start_date) <= to);
    const perPage = Number(query.per_page ?? 10);
    const page = Number(query.page ?? 1);
    const totalPages = Math.max(1, Math.ceil(events.length / perPage));
    return {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        'x-tec-total': String(events.length),
        'x-tec-totalpages': String(totalPages),
      },
      body: {
        events: events.slice((page - 1) * perPage, page * perPage),
        total: events.length,
        total_pages: totalPages,
      },
    };
  }

  /**
   * `GET /wp/v2/tribe_events` as WordPress 7 answers it: published posts to anyone; every status but the
   * trash (`status=any`) and, in `context=edit`, each post's password to an administrator; 401 for
   * `context=edit` and 400 for another status without credentials; `per_page` up to 100.
   */
  wpEventPosts(query: Record<string, string>, role: 'anonymous' | 'admin'): RecordedAnswer {
    const error = (status: number, code: string) => ({ status, headers: {}, body: { code, data: { status } } });
    const perPage = Number(query.per_page ?? 10);
    const page = Number(query.page ?? 1);
    if (!(perPage >= 1 && perPage <= 100)) return error(400, 'rest_invalid_param');
    if (role === 'anonymous' && query.context === 'edit') return error(401, 'rest_forbidden_context');
    const status = query.status ?? 'publish';
    if (role === 'anonymous' && status !== 'publish') return error(400, 'rest_invalid_param');
    const manifest = JSON.parse(readFileSync(join(TEC_FIXTURES, 'manifest.json'), 'utf8')) as {
      seeded: { events: { ids: { id: number; status: string; password: boolean }[] } };
    };
    const passwords = new Map(
      this.recorded.flatMap((r) => (r.query.password ? [[r.path.split('/').pop(), r.query.password]] : [])),
    );
    const posts = manifest.seeded.events.ids
      .map((post) => (this.gonePosts.has(post.id) ? { ...post, status: 'trash' } : post))
      .filter((post) => (status === 'any' ? post.status !== 'trash' : status.split(',').includes(post.status)))
      .sort((a, b) => a.id - b.id)
      .map((post) => ({
        id: post.id,
        status: post.status,
        ...(query.context === 'edit' ? { password: passwords.get(String(post.id)) ?? '' } : {}),
      }));
    const totalPages = Math.max(1, Math.ceil(posts.length / perPage));
    if (page > totalPages) return error(400, 'rest_post_invalid_page_number');
    return {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        'x-wp-total': String(posts.length),
        'x-wp-totalpages': String(totalPages),
      },
      body: posts.slice((page - 1) * perPage, page * perPage),
    };
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      const query = Object.fromEntries(url.searchParams);
      const role = req.headers.authorization?.startsWith('Basic ') ? 'admin' : 'anonymous';
      const key = keyOf(url.pathname, query);
      const basic = req.headers.authorization?.replace(/^Basic /, '');
      this.requests.push({
        key,
        role,
        ...(basic ? { credentials: Buffer.from(basic, 'base64').toString('utf8') } : {}),
      });
      this.waiters = this.waiters.filter((w) => (w.match(key) ? (w.resolve(), false) : true));
      const fault = this.faults.get(key);
      if (fault === 'hang') return;
      if (fault === '500' || fault === 'html') {
        res.writeHead(fault === '500' ? 500 : 200, { 'Content-Type': 'text/html' });
        res.end('<!DOCTYPE html><html><body>There has been a critical error on this website.</body></html>');
        return;
      }
      const answer =
        url.pathname === WP_EVENTS && this.wpIndex
          ? this.wpEventPosts(query, role)
          : this.answer(url.pathname, query, role);
      if (!answer) {
        res.writeHead(404, { 'Content-Type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify({ code: 'rest_no_route', message: 'No route was found', data: { status: 404 } }));
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** `path?sorted query`, with `page=1` as no page (what a client sends for the first page varies). */
export function keyOf(path: string, query: Record<string, string>): string {
  const entries = Object.entries(query)
    .filter(([name, value]) => !(name === 'page' && value === '1'))
    .sort(([a], [b]) => a.localeCompare(b));
  return `${path.replace(/\/$/, '')}?${new URLSearchParams(entries).toString()}`;
}
