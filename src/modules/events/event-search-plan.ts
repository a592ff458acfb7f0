import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../../common/pagination/pagination';
import { prefixRange } from '../../common/search/search-words';
import { DatabaseContext } from '../../database/database-context';
import { plainPublicWindow, PUBLIC_CONTENT } from './event-listing-plan';
import { tokenMatch } from './event-search-filter';
import type { EventArchiveFilter } from './events.repository';

/** A public search the word index can answer alone: one word (as a prefix) in a plain date window. */
export interface SearchWordRoute {
  window: { startFrom: string; endUntil: string };
  prefix: { from: string; to: string };
}

export function searchWordRoute(filter: EventArchiveFilter): SearchWordRoute | undefined {
  const window = plainPublicWindow(filter);
  if (!window || filter.tokens.length !== 1 || filter.contentVisible.sql !== PUBLIC_CONTENT) return undefined;
  if (filter.categoryIds !== undefined || filter.tagIds !== undefined) return undefined;
  const match = tokenMatch(filter.tokens[0]);
  return match.kind === 'word' ? { window, prefix: prefixRange(match.word) } : undefined;
}

/** A page of matching event ids, in list order, and the total. */
export interface SearchPage {
  ids: number[];
  total: number;
}

/** Most words a prefix may start for the index to answer alone (each adds a range to read). */
const MAX_WORDS_PER_PREFIX = 8;

/**
 * The public's one-word search read from `event_search_words` alone: the count and the page are ranges of
 * its (word, public_match, start_utc, post_id, end_utc) index, one per word the prefix starts, so neither
 * reads an event's text or row (docs/performance.md, "Search"). The index marks `public_match` on the
 * published, listed events; a scheduled post fallen due before the publisher flipped it is listed but not
 * marked, so while there is one in the window rows are read instead, as they are for a prefix of many words.
 */
@Injectable()
export class EventSearchPlan {
  constructor(private readonly db: DatabaseContext) {}

  async page(route: SearchWordRoute, nowUtc: string, page: PageRequest): Promise<SearchPage | undefined> {
    const { startFrom, endUntil } = route.window;
    const { from, to } = route.prefix;
    const [probe] = await this.db.manager.query<
      { first_word: string | null; last_word: string | null; due: number | string }[]
    >(
      `SELECT
         (SELECT w.word FROM event_search_words w WHERE w.word >= ? AND w.word < ? ORDER BY w.word LIMIT 1) AS first_word,
         (SELECT w.word FROM event_search_words w WHERE w.word >= ? AND w.word < ? ORDER BY w.word DESC LIMIT 1) AS last_word,
         (SELECT COUNT(*) FROM posts p INNER JOIN event_details d ON d.post_id = p.id
           WHERE p.status = 'future' AND p.date_utc <= ? AND d.hide_from_listings = 0
             AND d.start_utc >= ? AND d.end_utc <= ?) AS due`,
      [from, to, from, to, nowUtc, startFrom, endUntil],
    );
    if (Number(probe.due) > 0) return undefined;
    if (probe.first_word === null || probe.last_word === null) return { ids: [], total: 0 };
    const words = probe.first_word === probe.last_word ? [probe.first_word] : await this.wordsBetween(from, to);
    if (!words) return undefined;
    // The words may have gone since the probe (their events deleted): none is no match, not `IN ()`.
    if (words.length === 0) return { ids: [], total: 0 };
    const where = `FROM event_search_words w
      WHERE w.word IN (${words.map(() => '?').join(', ')}) AND w.public_match = 1
        AND w.start_utc >= ? AND w.start_utc <= ? AND w.end_utc <= ?`;
    const params = [...words, startFrom, endUntil, endUntil];
    // An event carrying two of the words has a row for each: count and page it once.
    const one = words.length === 1;
    const counted = one ? 'COUNT(*)' : 'COUNT(DISTINCT w.post_id)';
    const [{ n }] = await this.db.manager.query<{ n: number | string }[]>(`SELECT ${counted} AS n ${where}`, params);
    const total = Number(n);
    if (page.offset >= total) return { ids: [], total };
    const rows = await this.db.manager.query<{ post_id: number | string }[]>(
      // One word reads its page in index order and stops; DISTINCT would sort every match of the window.
      `SELECT ${one ? '' : 'DISTINCT '}w.post_id AS post_id, w.start_utc AS start_utc ${where}
        ORDER BY w.start_utc, w.post_id LIMIT ${Math.trunc(page.perPage)} OFFSET ${Math.trunc(page.offset)}`,
      params,
    );
    return { ids: rows.map((r) => Number(r.post_id)), total };
  }

  /** The words in [from, to), or undefined when there are more than the index answers for alone. */
  private async wordsBetween(from: string, to: string): Promise<string[] | undefined> {
    const rows = await this.db.manager.query<{ word: string }[]>(
      `SELECT DISTINCT w.word AS word FROM event_search_words w WHERE w.word >= ? AND w.word < ?
        ORDER BY w.word LIMIT ${MAX_WORDS_PER_PREFIX + 1}`,
      [from, to],
    );
    return rows.length > MAX_WORDS_PER_PREFIX ? undefined : rows.map((r) => r.word);
  }
}
