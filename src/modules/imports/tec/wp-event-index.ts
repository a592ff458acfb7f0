import { SourceFetchError } from '../fetch/source-fetch';
import { isRecord, type TecSite } from './tec-site';

/** What WordPress says of one event post there: its status and, to credentials that may edit it, its password. */
export interface IndexedEvent {
  status: string;
  /** The post's password; null when it has none or the credentials may not see it. */
  password: string | null;
}

export type EventIndex = { events: Map<number, IndexedEvent> } | { unavailable: string };

const WP_EVENTS = '/wp-json/wp/v2/tribe_events';
const PER_PAGE = 100;

/**
 * Every event post of the site as WordPress's own REST API lists them (`/wp/v2/tribe_events`, there while
 * TEC's block editor is on). TEC's list leaves out events hidden from listings and answers a date window
 * only; this one lists every post by id, and to an editor each one's password. A site that does not show it
 * (the classic editor, a plugin that closes `wp/v2`, an answer that is not such a list) leaves the import
 * to find hidden events by their ids (`unavailable`, with why). Read whole or not at all: a partial index
 * would pass hidden events by.
 */
export async function readEventIndex(site: TecSite, maxPages: number): Promise<EventIndex> {
  const events = new Map<number, IndexedEvent>();
  const query: Record<string, string> = site.signedIn
    ? { context: 'edit', status: 'any', _fields: 'id,status,password' }
    : { _fields: 'id,status' };
  try {
    for (let page = 1, totalPages = 1; page <= totalPages; page++) {
      if (page > maxPages) return { unavailable: `more than ${maxPages} pages (IMPORTS_MAX_PAGES)` };
      const params = new URLSearchParams({ ...query, orderby: 'id', order: 'asc', per_page: String(PER_PAGE) });
      if (page > 1) params.set('page', String(page));
      const { body, headers } = await site.jsonWithHeaders(`${site.siteUrl}${WP_EVENTS}?${params.toString()}`);
      if (!Array.isArray(body)) return { unavailable: 'it answered JSON that is not a list of posts' };
      for (const item of body) {
        if (!isRecord(item) || !Number.isInteger(item.id) || typeof item.status !== 'string')
          return { unavailable: 'it answered a list whose items are not posts with an id and a status' };
        const password = typeof item.password === 'string' && item.password !== '' ? item.password : null;
        events.set(item.id as number, { status: item.status, password });
      }
      const pages = Number(headers['x-wp-totalpages']);
      totalPages = Number.isInteger(pages) && pages > 0 ? pages : page;
      // A short page is the last whatever the count says, so a site that claims more pages costs no more.
      if (body.length < PER_PAGE) totalPages = page;
    }
  } catch (error) {
    if (error instanceof SourceFetchError) return { unavailable: error.message };
    throw error;
  }
  return { events };
}

/** Where the index is read, for the report. */
export const EVENT_INDEX_PATH = WP_EVENTS;
