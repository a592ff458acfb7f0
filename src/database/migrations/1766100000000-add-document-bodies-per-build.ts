import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { cascadeToPost, dateTimeColumn, intColumn, longTextColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * `event_document_bodies`: the stored bodies of each event's document, one row per build identity (`format`),
 * each valid for the `event_documents.generation` it was built at. Two builds on one database (a rolling
 * deploy, or one build on two Node lines) each keep their own bodies instead of overwriting each other's on
 * every read. `event_document_formats`: when each identity last ran, so the bodies of one that stopped are
 * swept away.
 *
 * The old body columns of `event_documents` stay (and are emptied by every change), so that a build from
 * before this migration still running beside this one serves nothing stale; a later migration drops them.
 */
export class AddDocumentBodiesPerBuild1766100000000 implements MigrationInterface {
  name = 'AddDocumentBodiesPerBuild1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_document_bodies',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          stringColumn('format', 64, { isPrimary: true }),
          intColumn('generation'),
          longTextColumn(queryRunner, 'object_json'),
          longTextColumn(queryRunner, 'json_ld'),
          stringColumn('valid_until_utc', 19, { isNullable: true }),
        ],
        indices: [new TableIndex({ name: 'IDX_event_document_bodies_format', columnNames: ['format', 'post_id'] })],
        foreignKeys: [cascadeToPost('FK_event_document_bodies_post', 'post_id')],
      }),
    );
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_document_formats',
        columns: [stringColumn('format', 64, { isPrimary: true }), dateTimeColumn('seen_utc')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_document_formats');
    await queryRunner.dropTable('event_document_bodies');
  }
}
