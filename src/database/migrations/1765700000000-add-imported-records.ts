import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn, intColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * `imported_records`: which record here each imported record became (issue 37), so a second import of a
 * source updates what changed and never duplicates. `source` names the feed or site, `source_id` the record
 * there (an iCalendar UID, with `#RECURRENCE-ID` for an exception); `hash` is what the source said last time.
 */
export class AddImportedRecords1765700000000 implements MigrationInterface {
  name = 'AddImportedRecords1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'imported_records',
        columns: [
          idColumn(),
          stringColumn('source', 191),
          stringColumn('source_id', 191),
          intColumn('post_id'),
          stringColumn('hash', 64),
          dateTimeColumn('imported_utc'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_imported_records_source', columnNames: ['source', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_imported_records_post', columnNames: ['post_id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_imported_records_post',
            columnNames: ['post_id'],
            referencedTableName: 'posts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('imported_records');
  }
}
