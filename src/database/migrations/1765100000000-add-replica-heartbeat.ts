import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { dateTimeColumn, intColumn } from './portable-columns';
import { createTableOnce, insertMissingRows } from './schema-steps';

/**
 * `replica_heartbeat`: one row whose time the instances write on the primary every second, by the
 * database's clock. A replica's copy of it says how far behind that replica is, and whether it applied a
 * given commit (ReplicaHealth, ReplicaReads), with no privilege beyond reading the service's own tables.
 */
export class AddReplicaHeartbeat1765100000000 implements MigrationInterface {
  name = 'AddReplicaHeartbeat1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'replica_heartbeat',
        columns: [intColumn('id', { isPrimary: true }), dateTimeColumn('beat_utc')],
      }),
    );
    await insertMissingRows(queryRunner, 'replica_heartbeat', 'id', [{ id: 1, beat_utc: '2000-01-01 00:00:00' }]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('replica_heartbeat');
  }
}
