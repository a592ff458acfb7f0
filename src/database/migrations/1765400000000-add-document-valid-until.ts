import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { addColumnOnce } from './schema-steps';

/**
 * `event_documents.valid_until_utc`: until when a stored document holds, for events with a module field whose
 * value turns with the clock ("on sale now"). A document is not served from that instant; null (every row
 * written before) means only a write changes it.
 */
export class AddDocumentValidUntil1765400000000 implements MigrationInterface {
  name = 'AddDocumentValidUntil1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumnOnce(
      queryRunner,
      'event_documents',
      new TableColumn({ name: 'valid_until_utc', type: 'varchar', length: '19', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('event_documents', 'valid_until_utc');
  }
}
