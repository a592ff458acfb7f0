import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { dateTimeColumn, stringColumn } from './portable-columns';
import { createTableOnce, insertMissingRows } from './schema-steps';

/**
 * `leases`: named leases that one process at a time holds (the scheduled-post publisher), renewed while
 * it runs and taken over by another instance when they run out.
 */
export class AddLeases1764800000000 implements MigrationInterface {
  name = 'AddLeases1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'leases',
        columns: [
          stringColumn('name', 64, { isPrimary: true }),
          stringColumn('owner', 64, { default: "''" }),
          dateTimeColumn('expires_utc'),
        ],
      }),
    );
    await insertMissingRows(queryRunner, 'leases', 'name', [
      { name: 'future-posts', owner: '', expires_utc: '2000-01-01 00:00:00' },
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('leases');
  }
}
