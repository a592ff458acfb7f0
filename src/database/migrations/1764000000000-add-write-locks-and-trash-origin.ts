import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { WRITE_LOCK_BUCKETS } from '../write-locks';
import { intColumn, stringColumn } from './portable-columns';
import { addColumnOnce, createTableOnce, insertMissingRows } from './schema-steps';

/**
 * `write_locks`: a fixed set of rows that writers lock (by updating one) to serialise decisions no
 * unique key can enforce, such as "reuse the venue of this name, else create it".
 * `posts.trashed_from`: the status a post had before it went to the trash, which decides who may still
 * edit it there (behaviour.md §3, as WordPress's `_wp_trash_meta_status`).
 */
export class AddWriteLocksAndTrashOrigin1764000000000 implements MigrationInterface {
  name = 'AddWriteLocksAndTrashOrigin1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'write_locks',
        columns: [intColumn('id', { isPrimary: true }), intColumn('generation', { default: 0 })],
      }),
    );
    await insertMissingRows(
      queryRunner,
      'write_locks',
      'id',
      Array.from({ length: WRITE_LOCK_BUCKETS }, (_, id) => ({ id, generation: 0 })),
    );
    await addColumnOnce(queryRunner, 'posts', new TableColumn(stringColumn('trashed_from', 20, { isNullable: true })));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('posts', 'trashed_from');
    await queryRunner.dropTable('write_locks');
  }
}
