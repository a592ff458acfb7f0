import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { dateTimeColumn, idColumn, intColumn, longTextColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/** The posts/terms base: every post type and taxonomy stores its shared fields here. */
export class CreatePostsAndTerms1763600000000 implements MigrationInterface {
  name = 'CreatePostsAndTerms1763600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'posts',
        columns: [
          idColumn(),
          stringColumn('type', 20),
          stringColumn('slug', 200),
          stringColumn('title', 255, { default: "''" }),
          longTextColumn(queryRunner, 'content'),
          longTextColumn(queryRunner, 'excerpt'),
          stringColumn('status', 20),
          intColumn('author_id', { isNullable: true }),
          intColumn('parent_id', { isNullable: true }),
          stringColumn('password_hash', 255, { isNullable: true }),
          intColumn('menu_order', { default: 0 }),
          dateTimeColumn('date_local'),
          dateTimeColumn('date_utc'),
          dateTimeColumn('modified_local'),
          dateTimeColumn('modified_utc'),
        ],
        uniques: [{ name: 'UQ_posts_type_slug', columnNames: ['type', 'slug'] }],
        indices: [
          { name: 'IDX_posts_type_status_date', columnNames: ['type', 'status', 'date_utc'] },
          { name: 'IDX_posts_type_title', columnNames: ['type', 'title'] },
          { name: 'IDX_posts_parent', columnNames: ['parent_id'] },
          { name: 'IDX_posts_author', columnNames: ['author_id'] },
        ],
        foreignKeys: [
          {
            name: 'FK_posts_parent',
            columnNames: ['parent_id'],
            referencedTableName: 'posts',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );

    await createTableOnce(
      queryRunner,
      new Table({
        name: 'attachment_details',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          stringColumn('url', 2048),
          stringColumn('mime_type', 100, { default: "''" }),
        ],
        foreignKeys: [
          {
            name: 'FK_attachment_details_post',
            columnNames: ['post_id'],
            referencedTableName: 'posts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );

    await createTableOnce(
      queryRunner,
      new Table({
        name: 'terms',
        columns: [
          idColumn(),
          stringColumn('taxonomy', 32),
          stringColumn('name', 200),
          stringColumn('slug', 200),
          longTextColumn(queryRunner, 'description'),
          intColumn('parent_id', { isNullable: true }),
          intColumn('count', { default: 0 }),
        ],
        uniques: [{ name: 'UQ_terms_taxonomy_slug', columnNames: ['taxonomy', 'slug'] }],
        indices: [
          { name: 'IDX_terms_taxonomy_name_parent', columnNames: ['taxonomy', 'name', 'parent_id'] },
          { name: 'IDX_terms_parent', columnNames: ['parent_id'] },
        ],
        foreignKeys: [
          {
            name: 'FK_terms_parent',
            columnNames: ['parent_id'],
            referencedTableName: 'terms',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );

    await createTableOnce(
      queryRunner,
      new Table({
        name: 'term_relationships',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          intColumn('term_id', { isPrimary: true }),
          intColumn('term_order', { default: 0 }),
        ],
        indices: [{ name: 'IDX_term_relationships_term_post', columnNames: ['term_id', 'post_id'] }],
        foreignKeys: [
          {
            name: 'FK_term_relationships_post',
            columnNames: ['post_id'],
            referencedTableName: 'posts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_term_relationships_term',
            columnNames: ['term_id'],
            referencedTableName: 'terms',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('term_relationships');
    await queryRunner.dropTable('terms');
    await queryRunner.dropTable('attachment_details');
    await queryRunner.dropTable('posts');
  }
}
