import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { booleanColumn, dateTimeColumn, intColumn, stringColumn } from './portable-columns';
import { addColumnOnce } from './schema-steps';

/**
 * A subscription's run of whole-run failures and its suspension (`failed_runs`, `suspended_reason`,
 * `suspended_utc`), and what each run read of its source (`source_digest`) and whether it crashed (its parse
 * worker or its instance died): a crashed run's source is not run again unchanged.
 */
export class AddImportSuspension1766000000000 implements MigrationInterface {
  name = 'AddImportSuspension1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumnOnce(queryRunner, 'import_subscriptions', new TableColumn(intColumn('failed_runs', { default: 0 })));
    await addColumnOnce(
      queryRunner,
      'import_subscriptions',
      new TableColumn(stringColumn('suspended_reason', 500, { isNullable: true })),
    );
    await addColumnOnce(
      queryRunner,
      'import_subscriptions',
      new TableColumn(dateTimeColumn('suspended_utc', { isNullable: true })),
    );
    await addColumnOnce(
      queryRunner,
      'import_runs',
      new TableColumn(stringColumn('source_digest', 80, { isNullable: true })),
    );
    await addColumnOnce(queryRunner, 'import_runs', new TableColumn(booleanColumn('crashed', false)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('import_runs', 'crashed');
    await queryRunner.dropColumn('import_runs', 'source_digest');
    await queryRunner.dropColumn('import_subscriptions', 'suspended_utc');
    await queryRunner.dropColumn('import_subscriptions', 'suspended_reason');
    await queryRunner.dropColumn('import_subscriptions', 'failed_runs');
  }
}
