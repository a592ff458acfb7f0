import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { booleanColumn, dateTimeColumn, idColumn, intColumn, longTextColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * Import subscriptions (issue 37): iCalendar feeds and TEC sites administrators register, each refreshed on
 * its schedule (`next_run_utc`, indexed for the scheduler's look for due ones), with the validators of the
 * last answer for a conditional GET; and the record of every run, newest last per subscription.
 */
export class AddImportSubscriptions1765900000000 implements MigrationInterface {
  name = 'AddImportSubscriptions1765900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'import_subscriptions',
        columns: [
          idColumn(),
          stringColumn('kind', 8),
          stringColumn('url', 2048),
          stringColumn('description', 200, { default: "''" }),
          stringColumn('source_user', 191, { isNullable: true }),
          stringColumn('source_password', 255, { isNullable: true }),
          longTextColumn(queryRunner, 'categories'),
          intColumn('interval_minutes'),
          stringColumn('overwrite', 16),
          booleanColumn('enabled', true),
          intColumn('author_id', { isNullable: true }),
          stringColumn('etag', 255, { isNullable: true }),
          stringColumn('last_modified', 64, { isNullable: true }),
          dateTimeColumn('next_run_utc'),
          dateTimeColumn('created_utc'),
          dateTimeColumn('modified_utc'),
        ],
        indices: [new TableIndex({ name: 'IDX_import_subscriptions_due', columnNames: ['enabled', 'next_run_utc'] })],
      }),
    );
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'import_runs',
        columns: [
          idColumn(),
          intColumn('subscription_id'),
          stringColumn('trigger_kind', 10),
          stringColumn('status', 14),
          dateTimeColumn('started_utc'),
          dateTimeColumn('finished_utc', { isNullable: true }),
          intColumn('created_count', { default: 0 }),
          intColumn('updated_count', { default: 0 }),
          intColumn('unchanged_count', { default: 0 }),
          intColumn('trashed_count', { default: 0 }),
          longTextColumn(queryRunner, 'report'),
        ],
        indices: [new TableIndex({ name: 'IDX_import_runs_subscription', columnNames: ['subscription_id', 'id'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_import_runs_subscription',
            columnNames: ['subscription_id'],
            referencedTableName: 'import_subscriptions',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('import_runs');
    await queryRunner.dropTable('import_subscriptions');
  }
}
