import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn, intColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * `imported_terms`: `imported_records` for terms (a TEC site's categories and tags, issue 37), which live in
 * their own id space: which term here each imported term became, and what the source said about it last time.
 */
export class AddImportedTerms1765800000000 implements MigrationInterface {
  name = 'AddImportedTerms1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'imported_terms',
        columns: [
          idColumn(),
          stringColumn('source', 191),
          stringColumn('source_id', 191),
          intColumn('term_id'),
          stringColumn('hash', 64),
          dateTimeColumn('imported_utc'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_imported_terms_source', columnNames: ['source', 'source_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_imported_terms_term', columnNames: ['term_id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_imported_terms_term',
            columnNames: ['term_id'],
            referencedTableName: 'terms',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('imported_terms');
  }
}
