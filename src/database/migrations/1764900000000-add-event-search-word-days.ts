import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { binaryStringColumn, intColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * Fills the counts from the word index there is (portable SQL: SUBSTR of a DATETIME is its
 * `YYYY-MM-DD HH:MM:SS` text on MySQL, the stored text on SQLite). The bench seed and `derived:rebuild` run it too.
 */
export const FILL_SEARCH_WORD_DAYS = `INSERT INTO event_search_word_days (word, start_day, end_day, matched)
  SELECT w.word, SUBSTR(w.start_utc, 1, 10), SUBSTR(w.end_utc, 1, 10), COUNT(*)
    FROM event_search_words w
   WHERE w.public_match = 1
   GROUP BY w.word, SUBSTR(w.start_utc, 1, 10), SUBSTR(w.end_utc, 1, 10)`;

/**
 * `event_search_word_days`: how many events the public finds by `word` (its `event_search_words` rows with
 * `public_match`) start on `start_day` and end on `end_day` (UTC days), kept on write like the listing's
 * day counts, so the total of the public's one-word search — and where its page starts — is a sum over days
 * instead of a count over every match (docs/performance.md, "Search: a word index").
 */
export class AddEventSearchWordDays1764900000000 implements MigrationInterface {
  name = 'AddEventSearchWordDays1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_search_word_days',
        columns: [
          binaryStringColumn(queryRunner, 'word', 64, { isPrimary: true }),
          stringColumn('start_day', 10, { isPrimary: true }),
          stringColumn('end_day', 10, { isPrimary: true }),
          intColumn('matched', { default: 0 }),
        ],
      }),
    );
    // MySQL commits DDL at once: after a failed fill the table stays behind, and a second run starts over.
    await queryRunner.query('DELETE FROM event_search_word_days');
    await queryRunner.query(FILL_SEARCH_WORD_DAYS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_search_word_days');
  }
}
