import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { dateTimeColumn } from './portable-columns';
import { addColumnOnce } from './schema-steps';

/**
 * `write_sequence.changed_utc`: when the content last changed, set by the same statement that increments
 * the sequence. Feeds answer `Last-Modified` / `If-Modified-Since` from it, the same on every instance
 * (a deletion changes a feed without leaving a newer `modified` on any event still in it).
 */
export class AddWriteSequenceTime1764500000000 implements MigrationInterface {
  name = 'AddWriteSequenceTime1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumnOnce(
      queryRunner,
      'write_sequence',
      new TableColumn(dateTimeColumn('changed_utc', { isNullable: true })),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('write_sequence', 'changed_utc');
  }
}
