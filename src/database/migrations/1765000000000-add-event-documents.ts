import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeToPost, intColumn, longTextColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * A row for every event that has none, its bodies empty (they fill on the next read). The bench seed and
 * `derived:rebuild` run it too.
 */
export const FILL_EVENT_DOCUMENT_ROWS = `INSERT INTO event_documents (post_id, generation)
  SELECT p.id, 0 FROM posts p
   WHERE p.type = 'cal_event'
     AND NOT EXISTS (SELECT 1 FROM event_documents e WHERE e.post_id = p.id)`;

/**
 * `event_documents`: each event's stored representation, the read model of docs/architecture.md. Lists and
 * single reads answer from it instead of assembling the event from its rows, venue, organizers and terms.
 */
export class AddEventDocuments1765000000000 implements MigrationInterface {
  name = 'AddEventDocuments1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_documents',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          intColumn('generation', { default: 0 }),
          stringColumn('format', 64, { isNullable: true }),
          longTextColumn(queryRunner, 'object_json', { isNullable: true }),
          longTextColumn(queryRunner, 'json_ld', { isNullable: true }),
        ],
        foreignKeys: [cascadeToPost('FK_event_documents_post', 'post_id')],
      }),
    );
    await queryRunner.query(FILL_EVENT_DOCUMENT_ROWS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_documents');
  }
}
