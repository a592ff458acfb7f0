import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { cascadeToPost, intColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * `event_field_values`: the values of the event fields modules declare with `StoredEventFieldModule` (a
 * capacity, a booking link), one row per event and field, as WordPress keeps post meta: a module's stored field
 * needs no table or migration of its own. Numbers and flags in `int_value` (indexed by field, for its filters),
 * text in `text_value`; no row is no value.
 */
export class AddEventFieldValues1766200000000 implements MigrationInterface {
  name = 'AddEventFieldValues1766200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_field_values',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          stringColumn('name', 64, { isPrimary: true }),
          intColumn('int_value', { isNullable: true }),
          stringColumn('text_value', 2048, { isNullable: true }),
        ],
        indices: [
          new TableIndex({ name: 'IDX_event_field_values_int', columnNames: ['name', 'int_value', 'post_id'] }),
        ],
        foreignKeys: [cascadeToPost('FK_event_field_values_post', 'post_id')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_field_values');
  }
}
