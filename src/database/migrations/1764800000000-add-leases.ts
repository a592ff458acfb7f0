import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { dateTimeColumn, stringColumn } from './portable-columns';

/**
 * `leases`: named leases that one process at a time holds (the scheduled-post publisher), renewed while
 * it runs and taken over by another instance when they run out.
 */
export class AddLeases1764800000000 implements MigrationInterface {
  name = 'AddLeases1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'leases',
        columns: [
          stringColumn('name', 64, { isPrimary: true }),
          stringColumn('owner', 64, { default: "''" }),
          dateTimeColumn('expires_utc'),
        ],
      }),
    );
    await queryRunner.manager
      .createQueryBuilder()
      .insert()
      .into('leases', ['name', 'owner', 'expires_utc'])
      .values({ name: 'future-posts', owner: '', expires_utc: '2000-01-01 00:00:00' })
      .execute();
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('leases');
  }
}
