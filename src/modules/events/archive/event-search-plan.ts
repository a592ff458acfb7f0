import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../../../common/pagination/pagination';
import { prefixRange } from '../../../common/search/search-words';
import { DatabaseContext } from '../../../database/database-context';
import { daysInOrder, type DayTotal, plainPublicWindow, PUBLIC_CONTENT, seekInDays } from './event-listing-plan';
import { tokenMatch } from './event-search-filter';
import { nextDayStart } from './event-window';
import type { ArchiveSeek, EventArchiveFilter } from './event-archive-filter';

/** A public search the word index can answer alone: one word (as a prefix) in a plain date window. */
export interface SearchWordRoute {
  window: { startFrom: string; endUntil: string };
  prefix: { from: string; to: string };
  /** The window runs from a UTC midnight to 23:59:59 of a UTC day, so the day counts alone cover it. */
  aligned: boolean;
}

export function searchWordRoute(filter: EventArchiveFilter): SearchWordRoute | undefined {
  const window = plainPublicWindow(filter);
  if (!window || filter.tokens.length !== 1 || filter.contentVisible.sql !== PUBLIC_CONTENT) return undefined;
  if (filter.termFilters.length > 0) return undefined;
  const match = tokenMatch(filter.tokens[0]);
  if (match.kind !== 'word') return undefined;
  const aligned = window.startFrom.endsWith(' 00:00:00') && window.endUntil.endsWith(' 23:59:59');
  return { window, prefix: prefixRange(match.word), aligned };
}

/** A page of matching event ids, in list order, and the total. */
export interface SearchPage {
  ids: number[];
  total: number;
}

/** Most words a prefix may start for the index to answer alone (each adds a range to read). */
const MAX_WORDS_PER_PREFIX = 8;

/** Rows of `event_search_words` the public finds by one word, in the route's window. */
const WORD_MATCHES = `FROM event_search_words w
  WHERE w.word = ? AND w.public_match = 1 AND w.start_utc >= ? AND w.start_utc <= ? AND w.end_utc <= ?`;

/**
 * The public's one-word search read from `event_search_words` and its day counts alone, never an event's
 * text or row (docs/performance.md, "Search"). A prefix that starts one word takes its total and the start
 * of its page from `event_search_word_days`, as the plain list does from the listing's day counts, so it
 * costs the same at a million events as at ten thousand; a prefix of several words counts the distinct
 * events of its index ranges. The index marks `public_match` on the published, listed events; a scheduled
 * post fallen due before the publisher flipped it is listed but not marked, so while there is one in the
 * window rows are read instead, as they are for a prefix of more than `MAX_WORDS_PER_PREFIX` words.
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
    if (probe.first_word === probe.last_word) return this.oneWord(probe.first_word, route, page);
    const words = await this.wordsBetween(from, to);
    if (!words) return undefined;
    // The words may have gone since the probe (their events deleted): none is no match, not `IN ()`.
    if (words.length === 0) return { ids: [], total: 0 };
    return words.length === 1 ? this.oneWord(words[0], route, page) : this.severalWords(words, route, page);
  }

  /** One word: the total and the page's days from the day counts, then the page from a day or two of rows. */
  private async oneWord(word: string, route: SearchWordRoute, page: PageRequest): Promise<SearchPage> {
    const days = await this.dayTotals(word, route);
    const total = days.reduce((sum, d) => sum + d.listed, 0);
    const seek = seekInDays(days, page);
    if (!seek) return { ids: [], total };
    return { ids: await this.seekPage(word, route, seek, page.perPage), total };
  }

  private async seekPage(word: string, route: SearchWordRoute, seek: ArchiveSeek, perPage: number): Promise<number[]> {
    const { startFrom, endUntil } = route.window;
    const before = seek.startBefore === undefined ? '' : ' AND w.start_utc < ?';
    const rows = await this.db.manager.query<{ post_id: number | string }[]>(
      `SELECT w.post_id AS post_id, w.start_utc AS start_utc ${WORD_MATCHES} AND w.start_utc >= ?${before}
        ORDER BY w.start_utc, w.post_id LIMIT ${Math.trunc(perPage)} OFFSET ${Math.trunc(seek.offset)}`,
      [
        word,
        startFrom,
        endUntil,
        endUntil,
        seek.startFrom,
        ...(seek.startBefore === undefined ? [] : [seek.startBefore]),
      ],
    );
    return rows.map((r) => Number(r.post_id));
  }

  /**
   * Matches per start day of the window. A window of whole UTC days is a range of day counts. Otherwise
   * the parts are disjoint, as in `EventListingPlan`: the window's first day from rows, the days in
   * between from the counts, and the events starting later that end on its last day from rows — read
   * from the earliest start day the counts give for events ending that day (a day or two of rows, unless
   * an event of many days ends there).
   */
  private async dayTotals(word: string, route: SearchWordRoute): Promise<DayTotal[]> {
    const { startFrom: from, endUntil: until } = route.window;
    const firstDay = from.slice(0, 10);
    const lastDay = until.slice(0, 10);
    if (route.aligned) {
      return daysInOrder(
        await this.db.manager.query(
          `SELECT c.start_day AS day, SUM(c.matched) AS listed FROM event_search_word_days c
            WHERE c.word = ? AND c.start_day >= ? AND c.start_day <= ? AND c.end_day <= ? GROUP BY c.start_day`,
          [word, firstDay, lastDay, lastDay],
        ),
      );
    }
    const afterFirstDay = nextDayStart(firstDay);
    const parts = await this.db.manager.query<{ day: string | null; listed: number | string | null }[]>(
      `SELECT ? AS day, COUNT(*) AS listed ${WORD_MATCHES} AND w.start_utc < ?
       UNION ALL
       SELECT c.start_day AS day, SUM(c.matched) AS listed FROM event_search_word_days c
        WHERE c.word = ? AND c.start_day > ? AND c.end_day < ? GROUP BY c.start_day
       UNION ALL
       SELECT NULL AS day, MIN(c.start_day) AS listed FROM event_search_word_days c
        WHERE c.word = ? AND c.end_day = ? AND c.start_day > ? AND c.matched > 0`,
      [firstDay, word, from, until, until, afterFirstDay, word, firstDay, lastDay, word, lastDay, firstDay],
    );
    const earliest = parts.find((p) => p.day === null)?.listed;
    const endingLast =
      typeof earliest === 'string'
        ? await this.db.manager.query<{ day: string; listed: number | string }[]>(
            `SELECT SUBSTR(w.start_utc, 1, 10) AS day, COUNT(*) AS listed ${WORD_MATCHES}
                AND w.start_utc >= ? AND w.end_utc >= ? GROUP BY SUBSTR(w.start_utc, 1, 10)`,
            [word, from, until, until, `${earliest} 00:00:00`, `${lastDay} 00:00:00`],
          )
        : [];
    return daysInOrder([...parts, ...endingLast]);
  }

  /** Several words: an event carrying two of them has a row for each, so it is counted and paged once. */
  private async severalWords(words: string[], route: SearchWordRoute, page: PageRequest): Promise<SearchPage> {
    const { startFrom, endUntil } = route.window;
    const where = `FROM event_search_words w
      WHERE w.word IN (${words.map(() => '?').join(', ')}) AND w.public_match = 1
        AND w.start_utc >= ? AND w.start_utc <= ? AND w.end_utc <= ?`;
    const params = [...words, startFrom, endUntil, endUntil];
    const [{ n }] = await this.db.manager.query<{ n: number | string }[]>(
      `SELECT COUNT(DISTINCT w.post_id) AS n ${where}`,
      params,
    );
    const total = Number(n);
    if (page.offset >= total) return { ids: [], total };
    const rows = await this.db.manager.query<{ post_id: number | string }[]>(
      `SELECT DISTINCT w.post_id AS post_id, w.start_utc AS start_utc ${where}
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
