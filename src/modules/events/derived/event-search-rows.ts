import type { EntityManager } from 'typeorm';
import { indexedWordsOf } from '../../../common/search/search-words';
import type { DerivedStore } from '../../../database/derived-stores';
import { FILL_SEARCH_WORD_DAYS } from '../../../database/migrations/1764900000000-add-event-search-word-days';

/** What the word index needs of an event: its text, and what decides whether the public finds it. */
export interface SearchableEvent {
  id: number;
  title: string;
  excerpt: string;
  content: string;
  status: string;
  hidden: boolean;
  hasPassword: boolean;
  startUtc: string;
  endUtc: string;
}

/** A row of `event_search_words`. */
export interface SearchWordRow {
  post_id: number;
  word: string;
  in_title: number;
  in_body: number;
  /** The public finds the event by this word: listed, and the word in its title or in text it may read. */
  public_match: number;
  start_utc: string;
  end_utc: string;
}

export const SEARCH_WORD_COLUMNS: (keyof SearchWordRow)[] = [
  'post_id',
  'word',
  'in_title',
  'in_body',
  'public_match',
  'start_utc',
  'end_utc',
];

/** Index rows written per INSERT (a long description has thousands of words; drivers bound parameters). */
const ROWS_PER_INSERT = 500;

/** Inserts one batch of index rows (the service through its shaped inserts, a migration through its runner). */
export type SearchRowsInsert = (table: string, rows: SearchWordRow[], columns: string[]) => Promise<unknown>;

/** Writes index rows in multi-row INSERTs of bounded size (the service's writes and the migration's fill). */
export async function insertSearchRows(rows: SearchWordRow[], insert: SearchRowsInsert): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await insert('event_search_words', rows.slice(i, i + ROWS_PER_INSERT), SEARCH_WORD_COLUMNS);
  }
}

/** {@link SearchRowsInsert} through TypeORM's insert builder on `manager`. */
export function insertWith(manager: EntityManager): SearchRowsInsert {
  return (table, rows, columns) => manager.createQueryBuilder().insert().into(table, columns).values(rows).execute();
}

/** The index rows of one event, in word order. */
export function searchRowsOf(event: SearchableEvent): SearchWordRow[] {
  const listed = event.status === 'publish' && !event.hidden;
  return indexedWordsOf(event.title, [event.excerpt, event.content]).map(({ word, inTitle, inBody }) => ({
    post_id: event.id,
    word,
    in_title: inTitle ? 1 : 0,
    in_body: inBody ? 1 : 0,
    public_match: listed && (inTitle || (inBody && !event.hasPassword)) ? 1 : 0,
    start_utc: event.startUtc,
    end_utc: event.endUtc,
  }));
}

/** The raw columns `searchableEventsQuery` selects, as the drivers return them. */
export interface SearchableEventRow {
  id: number | string;
  title: string;
  excerpt: string;
  content: string;
  status: string;
  hidden: number | string | boolean;
  has_password: number | string;
  start_utc: string;
  end_utc: string;
}

/** Columns to select from `posts p` joined with `event_details d` for `searchableEventOf`. */
export const SEARCHABLE_EVENT_SELECT = `p.id AS id, p.title AS title, p.excerpt AS excerpt, p.content AS content,
  p.status AS status, d.hide_from_listings AS hidden,
  CASE WHEN p.password_hash IS NULL THEN 0 ELSE 1 END AS has_password,
  d.start_utc AS start_utc, d.end_utc AS end_utc`;

export function searchableEventOf(row: SearchableEventRow): SearchableEvent {
  return {
    id: Number(row.id),
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    status: row.status,
    hidden: Boolean(Number(row.hidden)),
    hasPassword: Boolean(Number(row.has_password)),
    startUtc: row.start_utc,
    endUtc: row.end_utc,
  };
}

/** Events read per batch while filling. */
const EVENTS_PER_BATCH = 500;

/** Indexes every event there is, in batches of bounded memory (the words are found in JS). */
async function fillSearchWords(manager: EntityManager): Promise<void> {
  let after = 0;
  for (;;) {
    const events = await manager.query<SearchableEventRow[]>(
      `SELECT ${SEARCHABLE_EVENT_SELECT}
         FROM posts p INNER JOIN event_details d ON d.post_id = p.id
        WHERE p.id > ? ORDER BY p.id LIMIT ${EVENTS_PER_BATCH}`,
      [after],
    );
    if (events.length === 0) return;
    await insertSearchRows(
      events.flatMap((row) => searchRowsOf(searchableEventOf(row))),
      insertWith(manager),
    );
    after = Number(events[events.length - 1].id);
  }
}

/**
 * The word index and its per-day counts as a derived store: filled after the migrations that create them,
 * and again at the first start of another build (`storeVersion`).
 */
export const SEARCH_WORDS_STORE: DerivedStore = {
  name: 'event-search-words',
  tables: ['event_search_word_days', 'event_search_words'],
  fill: async (manager) => {
    await fillSearchWords(manager);
    await manager.query(FILL_SEARCH_WORD_DAYS);
  },
};
