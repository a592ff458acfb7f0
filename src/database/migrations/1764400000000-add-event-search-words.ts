import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { binaryStringColumn, booleanColumn, cascadeToPost, dateTimeColumn, intColumn } from './portable-columns';
import { createIndexOnce, createTableOnce } from './schema-steps';

/** What the public's one-word search reads: count and page are ranges of it. */
export const SEARCH_WORDS_INDEX = {
  name: 'IDX_event_search_words_public',
  // In list order (start, then id) after the equalities, so a page stops after its rows; end_utc last, for the window.
  columnNames: ['word', 'public_match', 'start_utc', 'post_id', 'end_utc'],
};

/**
 * The events' word index, `event_search_words`: one row per event and distinct word of its title, excerpt
 * and description (folded: no accents, lower case), so `search=` reads an index instead of scanning every
 * event's text. `public_match` and the event's dates are copied in, so the public's search of one word
 * counts and pages from this index alone. Same tables and results on SQLite and MySQL (no engine full-text
 * index; docs/performance.md, "Search"). Created empty: the derived store fills it (see `up`).
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
    // The rows are the events module's to derive (its `event-search-words` store fills them after the
    // migrations, with the words as today's code finds them); the index goes on the empty table.
    await createIndexOnce(queryRunner, 'event_search_words', new TableIndex(SEARCH_WORDS_INDEX));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_search_words');
  }
}
