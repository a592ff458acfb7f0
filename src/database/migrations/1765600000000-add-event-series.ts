import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { booleanColumn, dateTimeColumn, intColumn, stringColumn } from './portable-columns';
import { addColumnOnce, createIndexOnce, createTableOnce } from './schema-steps';

/**
 * Recurring events (behaviour.md §11). `event_series` holds a series' lines, its zone, the wall time its rule
 * counts from (DTSTART), the write fields every new occurrence gets (`template`) and, for an unbounded rule,
 * how far it was expanded. Its id is the id of the series' first occurrence, and stays when that occurrence
 * is deleted: so no foreign key to `posts`. Each occurrence is an ordinary event whose `event_details` row
 * names its series, the wall time the rule gave it (its RECURRENCE-ID) and whether it was edited on its own.
 */
export class AddEventSeries1765600000000 implements MigrationInterface {
  name = 'AddEventSeries1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_series',
        columns: [
          intColumn('id', { isPrimary: true }),
          { name: 'lines', type: 'text', isNullable: false },
          stringColumn('timezone', 64),
          dateTimeColumn('start_local'),
          booleanColumn('all_day', false),
          { name: 'template', type: 'text', isNullable: false },
          dateTimeColumn('horizon_utc', { isNullable: true }),
        ],
        indices: [new TableIndex({ name: 'IDX_event_series_horizon', columnNames: ['horizon_utc'] })],
      }),
    );
    await addColumnOnce(queryRunner, 'event_details', new TableColumn(intColumn('series_id', { isNullable: true })));
    await addColumnOnce(
      queryRunner,
      'event_details',
      new TableColumn(dateTimeColumn('occurrence_local', { isNullable: true })),
    );
    await addColumnOnce(queryRunner, 'event_details', new TableColumn(booleanColumn('detached', false)));
    await createIndexOnce(
      queryRunner,
      'event_details',
      new TableIndex({ name: 'IDX_event_details_series', columnNames: ['series_id', 'occurrence_local'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('event_details', 'IDX_event_details_series');
    for (const column of ['detached', 'occurrence_local', 'series_id']) {
      await queryRunner.dropColumn('event_details', column);
    }
    await queryRunner.dropTable('event_series');
  }
}
