import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { intColumn } from './portable-columns';
import { createIndexOnce, createTableOnce, insertMissingRows } from './schema-steps';

/**
 * `write_sequence`: one row whose `value` every committed content write increments in its own
 * transaction. Caches key their entries by it, so any instance sees any instance's write at once.
 * `IDX_posts_status_date`: the next scheduled post of any type (when cached reads stop being valid) and
 * the publisher's sweep, without a scan.
 */
export class AddWriteSequence1764100000000 implements MigrationInterface {
  name = 'AddWriteSequence1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'write_sequence',
        columns: [
          intColumn('id', { isPrimary: true }),
          { name: 'value', type: 'bigint', isNullable: false, default: 0 },
        ],
      }),
    );
    await insertMissingRows(queryRunner, 'write_sequence', 'id', [{ id: 1, value: 0 }]);
    await createIndexOnce(
      queryRunner,
      'posts',
      new TableIndex({ name: 'IDX_posts_status_date', columnNames: ['status', 'date_utc'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('posts', 'IDX_posts_status_date');
    await queryRunner.dropTable('write_sequence');
  }
}
