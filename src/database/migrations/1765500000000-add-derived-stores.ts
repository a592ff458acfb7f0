import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { dateTimeColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * `derived_stores`: which version of a module's deriving code filled each derived store (`derived-stores.ts`),
 * and which time zone rules the events' UTC times follow (`event-utc-times`, `EventZoneRebase`). Empty here:
 * every declared store is filled once at the next start, with the code that start runs.
 */
export class AddDerivedStores1765500000000 implements MigrationInterface {
  name = 'AddDerivedStores1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'derived_stores',
        columns: [
          stringColumn('name', 64, { isPrimary: true }),
          stringColumn('version', 64),
          dateTimeColumn('filled_utc'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('derived_stores');
  }
}
