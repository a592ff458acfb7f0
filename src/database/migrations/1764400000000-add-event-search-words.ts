import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
// The one exception to the layering rule, landed before it: this fill (and `derived:rebuild`, which reuses
// it) indexes the words as the events module does today. Moving the fill to a rebuild of derived data that
// runs after the migrations is open work (issue 35).
// eslint-disable-next-line no-restricted-imports
import {
  insertSearchRows,
  insertWith,
  SEARCHABLE_EVENT_SELECT,
  searchableEventOf,
  searchRowsOf,
  type SearchableEventRow,
} from '../../modules/events/event-search-rows';
import { binaryStringColumn, booleanColumn, cascadeToPost, dateTimeColumn, intColumn } from './portable-columns';
import { createIndexOnce, createTableOnce } from './schema-steps';

/** What the public's one-word search reads: count and page are ranges of it. */
export const SEARCH_WORDS_INDEX = {
  name: 'IDX_event_search_words_public',
  // In list order (start, then id) after the equalities, so a page stops after its rows; end_utc last, for the window.
  columnNames: ['word', 'public_match', 'start_utc', 'post_id', 'end_utc'],
};

/** Events read per batch while filling. */
const EVENTS_PER_BATCH = 500;

/**
 * The events' word index, `event_search_words`: one row per event and distinct word of its title, excerpt
 * and description (folded: no accents, lower case), so `search=` reads an index instead of scanning every
 * event's text. `public_match` and the event's dates are copied in, so the public's search of one word
 * counts and pages from this index alone. Same tables and results on SQLite and MySQL (no engine full-text
 * index; docs/performance.md, "Search").
 */
export class AddEventSearchWords1764400000000 implements MigrationInterface {
  name = 'AddEventSearchWords1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_search_words',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          binaryStringColumn(queryRunner, 'word', 64, { isPrimary: true }),
          booleanColumn('in_title', false),
          booleanColumn('in_body', false),
          booleanColumn('public_match', false),
          dateTimeColumn('start_utc'),
          dateTimeColumn('end_utc'),
        ],
        foreignKeys: [cascadeToPost('FK_event_search_words_post', 'post_id')],
      }),
    );
    // MySQL commits DDL at once: after a failed fill the table stays behind, and a second run starts over.
    await queryRunner.query('DELETE FROM event_search_words');
    // Rows arrive in primary-key order; the word index is built once after them, sorted, instead of
    // taking millions of inserts at random places (minutes at a million events).
    const table = await queryRunner.getTable('event_search_words');
    const index = table?.indices.find((i) => i.name === SEARCH_WORDS_INDEX.name);
    if (index) await queryRunner.dropIndex('event_search_words', index);
    await fillSearchWords(queryRunner);
    await createIndexOnce(queryRunner, 'event_search_words', new TableIndex(SEARCH_WORDS_INDEX));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_search_words');
  }
}

/** Indexes every event there is, in batches of bounded memory (the words are found in JS). */
export async function fillSearchWords(queryRunner: QueryRunner): Promise<void> {
  let after = 0;
  for (;;) {
    const events: SearchableEventRow[] = await queryRunner.manager.query(
      `SELECT ${SEARCHABLE_EVENT_SELECT}
         FROM posts p INNER JOIN event_details d ON d.post_id = p.id
        WHERE p.id > ? ORDER BY p.id LIMIT ${EVENTS_PER_BATCH}`,
      [after],
    );
    if (events.length === 0) return;
    await insertSearchRows(
      events.flatMap((row) => searchRowsOf(searchableEventOf(row))),
      insertWith(queryRunner.manager),
    );
    after = Number(events[events.length - 1].id);
  }
}
