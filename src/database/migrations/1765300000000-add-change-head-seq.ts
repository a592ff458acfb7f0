import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { intColumn } from './portable-columns';
import { addColumnOnce } from './schema-steps';

/**
 * `change_heads.seq`: the write sequence number of a resource's last change. Times have whole seconds, so two
 * changes within one second (an event written, its venue renamed a moment later) left the same head time, and
 * a feed fingerprinted by it kept its ETag: subscribers were told 304 and kept the old LOCATION. Rows written
 * before have 0, which the next change of the resource replaces.
 */
export class AddChangeHeadSeq1765300000000 implements MigrationInterface {
  name = 'AddChangeHeadSeq1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumnOnce(queryRunner, 'change_heads', new TableColumn(intColumn('seq', { default: 0 })));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('change_heads', 'seq');
  }
}
