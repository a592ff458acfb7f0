import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn, intColumn, longTextColumn, stringColumn } from './portable-columns';
import { addColumnOnce, createTableOnce } from './schema-steps';

/**
 * Issue 49: a subscription's options besides its categories (`options`, JSON: a default status, a window, a
 * count limit, what deletions at the source do, ignore rules); the records each source's runs ignore
 * (`import_ignored`, one row per source and source id, by source for the administrators' list); and room for
 * a source password kept encrypted (`source_password`, 1024: the sealed form is longer than the password); and
 * the ledger's row of an imported post kept when an editor deletes the post.
 */
export class AddImportOptions1766300000000 implements MigrationInterface {
  name = 'AddImportOptions1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumnOnce(
      queryRunner,
      'import_subscriptions',
      new TableColumn(longTextColumn(queryRunner, 'options', { isNullable: true })),
    );
    await queryRunner.changeColumn(
      'import_subscriptions',
      'source_password',
      new TableColumn(stringColumn('source_password', 1024, { isNullable: true })),
    );
    await this.keepLedgerRowsOfDeletedPosts(queryRunner);
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'import_ignored',
        columns: [
          idColumn(),
          stringColumn('source', 191),
          stringColumn('source_id', 191),
          stringColumn('title', 255, { default: "''" }),
          stringColumn('reason', 255),
          dateTimeColumn('ignored_utc'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_import_ignored_source', columnNames: ['source', 'source_id'], isUnique: true }),
        ],
      }),
    );
  }

  /**
   * `imported_records.post_id` set to NULL, not the row deleted, when its post is deleted here: the next run
   * then knows an editor deleted what it imported, and leaves it out (the ignored records) instead of making
   * it anew.
   */
  private async keepLedgerRowsOfDeletedPosts(queryRunner: QueryRunner): Promise<void> {
    const table = await queryRunner.getTable('imported_records');
    const key = table?.foreignKeys.find((f) => f.columnNames.join() === 'post_id');
    if (!table || key?.onDelete === 'SET NULL') return;
    if (key) await queryRunner.dropForeignKey('imported_records', key);
    await queryRunner.changeColumn(
      'imported_records',
      'post_id',
      new TableColumn(intColumn('post_id', { isNullable: true })),
    );
    await queryRunner.createForeignKey(
      'imported_records',
      new TableForeignKey({
        name: 'FK_imported_records_post',
        columnNames: ['post_id'],
        referencedTableName: 'posts',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('import_ignored');
    await queryRunner.changeColumn(
      'import_subscriptions',
      'source_password',
      new TableColumn(stringColumn('source_password', 255, { isNullable: true })),
    );
    await queryRunner.dropColumn('import_subscriptions', 'options');
  }
}
