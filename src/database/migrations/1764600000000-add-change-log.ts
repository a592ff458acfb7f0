import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { formatSqlDateTime } from '../datetime.transformer';
import { booleanColumn, dateTimeColumn, intColumn, stringColumn } from './portable-columns';
import { addColumnOnce, createTableOnce } from './schema-steps';

/** The REST nouns of the calendar's stored post types and taxonomies, for the backfill of `change_heads`. */
const BACKFILLED: { table: 'posts' | 'terms'; column: 'type' | 'taxonomy'; value: string; resource: string }[] = [
  { table: 'posts', column: 'type', value: 'cal_event', resource: 'event' },
  { table: 'posts', column: 'type', value: 'cal_venue', resource: 'venue' },
  { table: 'posts', column: 'type', value: 'cal_organizer', resource: 'organizer' },
  { table: 'terms', column: 'taxonomy', value: 'cal_events_cat', resource: 'category' },
  { table: 'terms', column: 'taxonomy', value: 'post_tag', resource: 'tag' },
];

/**
 * The change log (sync and webhooks read it), `change_heads` (when each resource last changed) and
 * `write_sequence.purged_through` (the last sequence value whose log rows were pruned: older sync tokens
 * are expired). Existing records get a head from their modification time; terms, which keep none, the
 * time of the migration.
 */
export class AddChangeLog1764600000000 implements MigrationInterface {
  name = 'AddChangeLog1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'change_log',
        columns: [
          { name: 'seq', type: 'bigint', isPrimary: true, isNullable: false },
          intColumn('position', { isPrimary: true }),
          stringColumn('resource', 32),
          intColumn('resource_id'),
          stringColumn('action', 16),
          booleanColumn('public_before', false),
          booleanColumn('public_after', false),
          intColumn('author_id', { isNullable: true }),
          dateTimeColumn('changed_utc'),
        ],
        indices: [{ name: 'IDX_change_log_changed', columnNames: ['changed_utc'] }],
      }),
    );
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'change_heads',
        columns: [
          stringColumn('resource', 32, { isPrimary: true }),
          intColumn('resource_id', { isPrimary: true }),
          dateTimeColumn('changed_utc'),
        ],
        indices: [{ name: 'IDX_change_heads_changed', columnNames: ['resource', 'changed_utc'] }],
      }),
    );
    // MySQL commits DDL at once: after a failed backfill what was made stays behind, and a second run starts over.
    await addColumnOnce(
      queryRunner,
      'write_sequence',
      new TableColumn({ name: 'purged_through', type: 'bigint', isNullable: false, default: 0 }),
    );
    await queryRunner.query('DELETE FROM change_heads');
    const now = formatSqlDateTime(new Date());
    for (const { table, column, value, resource } of BACKFILLED) {
      const changed = table === 'posts' ? 'modified_utc' : '?';
      // Standard SQL (INSERT … SELECT), the same on SQLite, MariaDB and MySQL; the query builder has no form of it.
      await queryRunner.query(
        `INSERT INTO change_heads (resource, resource_id, changed_utc) SELECT ?, id, ${changed} FROM ${table} WHERE ${column} = ?`,
        table === 'posts' ? [resource, value] : [resource, now, value],
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('write_sequence', 'purged_through');
    await queryRunner.dropTable('change_heads');
    await queryRunner.dropTable('change_log');
  }
}
