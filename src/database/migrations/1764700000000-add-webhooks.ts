import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { dateTimeColumn, idColumn, intColumn, stringColumn } from './portable-columns';
import { createTableOnce, insertMissingRows } from './schema-steps';

/**
 * Webhooks: the endpoints administrators register, one delivery row per change and endpoint (its id is
 * the delivery id receivers de-duplicate by), and the dispatcher's position in the change log.
 */
export class AddWebhooks1764700000000 implements MigrationInterface {
  name = 'AddWebhooks1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'webhook_endpoints',
        columns: [
          idColumn(),
          stringColumn('url', 2048),
          stringColumn('description', 200, { default: "''" }),
          { name: 'event_types', type: 'text', isNullable: false },
          stringColumn('secret', 200),
          stringColumn('status', 16),
          stringColumn('disabled_reason', 500, { isNullable: true }),
          { name: 'since_seq', type: 'bigint', isNullable: false, default: 0 },
          dateTimeColumn('created_utc'),
          dateTimeColumn('modified_utc'),
        ],
      }),
    );
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'webhook_deliveries',
        columns: [
          stringColumn('id', 36, { isPrimary: true }),
          intColumn('endpoint_id'),
          { name: 'seq', type: 'bigint', isNullable: false },
          intColumn('position'),
          stringColumn('resource', 32),
          intColumn('resource_id'),
          stringColumn('action', 16),
          stringColumn('status', 16),
          intColumn('attempts', { default: 0 }),
          dateTimeColumn('next_attempt_utc'),
          dateTimeColumn('lease_until_utc', { isNullable: true }),
          intColumn('last_status', { isNullable: true }),
          stringColumn('last_error', 500, { isNullable: true }),
          dateTimeColumn('changed_utc'),
          dateTimeColumn('created_utc'),
          dateTimeColumn('delivered_utc', { isNullable: true }),
        ],
        indices: [
          { name: 'IDX_webhook_deliveries_due', columnNames: ['status', 'next_attempt_utc'] },
          {
            name: 'IDX_webhook_deliveries_chain',
            columnNames: ['endpoint_id', 'resource', 'resource_id', 'status', 'seq'],
          },
          { name: 'UQ_webhook_deliveries_change', columnNames: ['endpoint_id', 'seq', 'position'], isUnique: true },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_webhook_deliveries_endpoint',
            columnNames: ['endpoint_id'],
            referencedTableName: 'webhook_endpoints',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'webhook_dispatch',
        columns: [
          intColumn('id', { isPrimary: true }),
          { name: 'seq', type: 'bigint', isNullable: false, default: 0 },
          intColumn('position', { default: 0 }),
        ],
      }),
    );
    // Changes from before webhooks existed are nobody's to deliver: the dispatcher starts at the present.
    const row = await queryRunner.manager
      .createQueryBuilder()
      .select('w.value', 'value')
      .from('write_sequence', 'w')
      .where('w.id = 1')
      .getRawOne<{ value: number | string }>();
    await insertMissingRows(queryRunner, 'webhook_dispatch', 'id', [
      { id: 1, seq: Number(row?.value ?? 0), position: 999_999_999 },
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_dispatch');
    await queryRunner.dropTable('webhook_deliveries');
    await queryRunner.dropTable('webhook_endpoints');
  }
}
