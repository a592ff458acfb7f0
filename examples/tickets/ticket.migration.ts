import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { cascadeToPost, idColumn, intColumn, stringColumn } from '../../src/extend';

/** `event_tickets`, indexed by event (every read and the `ticketed` filter look tickets up by event). */
export class CreateEventTickets1790100000000 implements MigrationInterface {
  name = 'CreateEventTickets1790100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'event_tickets',
        columns: [
          idColumn(),
          intColumn('event_id'),
          stringColumn('name', 200),
          stringColumn('price', 20, { default: "''" }),
          intColumn('capacity', { isNullable: true }),
          stringColumn('sale_start_utc', 19, { isNullable: true }),
          stringColumn('sale_end_utc', 19, { isNullable: true }),
        ],
        foreignKeys: [cascadeToPost('fk_event_tickets_event', 'event_id')],
        indices: [new TableIndex({ name: 'idx_event_tickets_event', columnNames: ['event_id'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_tickets');
  }
}
