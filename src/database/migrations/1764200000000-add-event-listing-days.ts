import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeToPost, intColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * Per-day counts of listed events, so the total of a long date window is a sum over days rather than a
 * count over every event in it (docs/performance.md, "Totals that do not scan").
 * - `event_listing_days`: how many listed events (published, not hidden) start on `start_day` and end on
 *   `end_day` (UTC days, `YYYY-MM-DD`).
 * - `event_listing_marks`: the bucket each listed event is counted in, so a write moves exactly its own
 *   contribution whatever changed (status, dates, visibility in lists).
 * Both are filled from the events already there.
 */
/**
 * Fills both tables from the events there are (portable SQL: SUBSTR of a DATETIME is its
 * `YYYY-MM-DD HH:MM:SS` text on MySQL, the stored text on SQLite). The bench seed runs it too.
 */
export const FILL_LISTING_COUNTS = [
  `INSERT INTO event_listing_marks (post_id, start_day, end_day)
   SELECT d.post_id, SUBSTR(d.start_utc, 1, 10), SUBSTR(d.end_utc, 1, 10)
     FROM event_details d INNER JOIN posts p ON p.id = d.post_id
    WHERE p.status = 'publish' AND d.hide_from_listings = 0`,
  `INSERT INTO event_listing_days (start_day, end_day, listed)
   SELECT start_day, end_day, COUNT(*) FROM event_listing_marks GROUP BY start_day, end_day`,
] as const;

export class AddEventListingDays1764200000000 implements MigrationInterface {
  name = 'AddEventListingDays1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_listing_days',
        columns: [
          stringColumn('start_day', 10, { isPrimary: true }),
          stringColumn('end_day', 10, { isPrimary: true }),
          intColumn('listed', { default: 0 }),
        ],
      }),
    );
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_listing_marks',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          stringColumn('start_day', 10),
          stringColumn('end_day', 10),
        ],
        foreignKeys: [cascadeToPost('FK_event_listing_marks_post', 'post_id')],
      }),
    );
    // MySQL commits DDL at once: after a failed fill the tables stay behind, and a second run starts over.
    await queryRunner.query('DELETE FROM event_listing_marks');
    await queryRunner.query('DELETE FROM event_listing_days');
    for (const statement of FILL_LISTING_COUNTS) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_listing_marks');
    await queryRunner.dropTable('event_listing_days');
  }
}
