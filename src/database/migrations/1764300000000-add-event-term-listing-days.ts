import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeToPost, cascadeToTerm, intColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * Fills both tables from the events there are: the terms of every counted event without a password (a
 * term filter never matches a password-protected event for callers who cannot read it). The bench seed
 * runs these too.
 */
export const FILL_TERM_LISTING_COUNTS = [
  `INSERT INTO event_term_listing_marks (post_id, term_id)
   SELECT tr.post_id, tr.term_id
     FROM term_relationships tr
     INNER JOIN event_listing_marks m ON m.post_id = tr.post_id
     INNER JOIN posts p ON p.id = tr.post_id
    WHERE p.password_hash IS NULL`,
  `INSERT INTO event_term_listing_days (term_id, start_day, end_day, listed)
   SELECT tm.term_id, m.start_day, m.end_day, COUNT(*)
     FROM event_term_listing_marks tm INNER JOIN event_listing_marks m ON m.post_id = tm.post_id
    GROUP BY tm.term_id, m.start_day, m.end_day`,
] as const;

/**
 * Per-day counts of listed events per term, so a `categories=` or `tags=` archive costs the same at a
 * million events as at ten thousand (docs/performance.md, "Totals that do not scan").
 * - `event_term_listing_days`: how many listed events without a password carrying `term_id` start on
 *   `start_day` and end on `end_day` (UTC days).
 * - `event_term_listing_marks`: the terms each event is counted under; its bucket is the event's row in
 *   `event_listing_marks`. Deleting a term drops its rows from both tables.
 */
export class AddEventTermListingDays1764300000000 implements MigrationInterface {
  name = 'AddEventTermListingDays1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_term_listing_days',
        columns: [
          intColumn('term_id', { isPrimary: true }),
          stringColumn('start_day', 10, { isPrimary: true }),
          stringColumn('end_day', 10, { isPrimary: true }),
          intColumn('listed', { default: 0 }),
        ],
        foreignKeys: [cascadeToTerm('FK_event_term_listing_days_term')],
      }),
    );
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_term_listing_marks',
        columns: [intColumn('post_id', { isPrimary: true }), intColumn('term_id', { isPrimary: true })],
        indices: [{ name: 'IDX_event_term_listing_marks_term', columnNames: ['term_id'] }],
        foreignKeys: [
          cascadeToPost('FK_event_term_listing_marks_post', 'post_id'),
          cascadeToTerm('FK_event_term_listing_marks_term'),
        ],
      }),
    );
    // MySQL commits DDL at once: after a failed fill the tables stay behind, and a second run starts over.
    await queryRunner.query('DELETE FROM event_term_listing_days');
    await queryRunner.query('DELETE FROM event_term_listing_marks');
    for (const statement of FILL_TERM_LISTING_COUNTS) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_term_listing_marks');
    await queryRunner.dropTable('event_term_listing_days');
  }
}
