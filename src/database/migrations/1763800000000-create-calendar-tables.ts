import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';
import { booleanColumn, dateTimeColumn, intColumn, longTextColumn, stringColumn } from './portable-columns';
import { addColumnOnce, createForeignKeyOnce, createIndexOnce, createTableOnce } from './schema-steps';

const cascadeToPost = (name: string, column: string): TableForeignKey =>
  new TableForeignKey({
    name,
    columnNames: [column],
    referencedTableName: 'posts',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });

/**
 * The calendar's own tables: featured images on posts, the venue, organizer and event companions, and
 * the event ↔ venue / event ↔ organizer links (ordered).
 */
export class CreateCalendarTables1763800000000 implements MigrationInterface {
  name = 'CreateCalendarTables1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumnOnce(queryRunner, 'posts', new TableColumn(intColumn('featured_image_id', { isNullable: true })));
    await createIndexOnce(
      queryRunner,
      'posts',
      new TableIndex({ name: 'IDX_posts_featured_image', columnNames: ['featured_image_id'] }),
    );
    await createForeignKeyOnce(
      queryRunner,
      'posts',
      new TableForeignKey({
        name: 'FK_posts_featured_image',
        columnNames: ['featured_image_id'],
        referencedTableName: 'posts',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
      }),
    );

    await createTableOnce(
      queryRunner,
      new Table({
        name: 'venue_details',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          stringColumn('address', 255, { default: "''" }),
          stringColumn('city', 100, { default: "''" }),
          stringColumn('country', 100, { default: "''" }),
          stringColumn('province', 100, { default: "''" }),
          stringColumn('state', 100, { default: "''" }),
          stringColumn('zip', 20, { default: "''" }),
          stringColumn('phone', 50, { default: "''" }),
          stringColumn('stateprovince', 100, { default: "''" }),
          stringColumn('website', 2048, { default: "''" }),
          { name: 'show_map', type: 'boolean', isNullable: true },
          { name: 'show_map_link', type: 'boolean', isNullable: true },
        ],
        foreignKeys: [cascadeToPost('FK_venue_details_post', 'post_id')],
      }),
    );

    await createTableOnce(
      queryRunner,
      new Table({
        name: 'organizer_details',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          stringColumn('phone', 50, { default: "''" }),
          stringColumn('website', 2048, { default: "''" }),
          stringColumn('email', 100, { default: "''" }),
        ],
        foreignKeys: [cascadeToPost('FK_organizer_details_post', 'post_id')],
      }),
    );

    await createTableOnce(
      queryRunner,
      new Table({
        name: 'event_details',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          dateTimeColumn('start_local'),
          dateTimeColumn('end_local'),
          dateTimeColumn('start_utc'),
          dateTimeColumn('end_utc'),
          stringColumn('timezone', 64),
          booleanColumn('all_day', false),
          longTextColumn(queryRunner, 'cost'),
          stringColumn('currency_symbol', 10, { default: "''" }),
          stringColumn('currency_code', 3, { default: "''" }),
          stringColumn('currency_position', 7, { default: "'prefix'" }),
          stringColumn('website', 2048, { default: "''" }),
          booleanColumn('show_map', true),
          booleanColumn('show_map_link', true),
          booleanColumn('hide_from_listings', false),
          booleanColumn('sticky', false),
          booleanColumn('featured', false),
        ],
        indices: [
          { name: 'IDX_event_details_start', columnNames: ['start_utc', 'post_id'] },
          { name: 'IDX_event_details_end', columnNames: ['end_utc'] },
          // The default list: filters on the hidden flag and the window, in list order (start, id), and
          // carries the end for the window check, so a page stops after its rows without a sort.
          {
            name: 'IDX_event_details_listing',
            columnNames: ['hide_from_listings', 'start_utc', 'post_id', 'end_utc'],
          },
          { name: 'IDX_event_details_featured', columnNames: ['featured', 'start_utc'] },
        ],
        foreignKeys: [cascadeToPost('FK_event_details_post', 'post_id')],
      }),
    );

    for (const [table, column] of [
      ['event_venues', 'venue_id'],
      ['event_organizers', 'organizer_id'],
    ] as const) {
      await createTableOnce(
        queryRunner,
        new Table({
          name: table,
          columns: [
            intColumn('event_id', { isPrimary: true }),
            intColumn(column, { isPrimary: true }),
            intColumn('sort_order', { default: 0 }),
          ],
          indices: [{ name: `IDX_${table}_${column}_event`, columnNames: [column, 'event_id'] }],
          foreignKeys: [cascadeToPost(`FK_${table}_event`, 'event_id'), cascadeToPost(`FK_${table}_${column}`, column)],
        }),
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_organizers');
    await queryRunner.dropTable('event_venues');
    await queryRunner.dropTable('event_details');
    await queryRunner.dropTable('organizer_details');
    await queryRunner.dropTable('venue_details');
    await queryRunner.dropForeignKey('posts', 'FK_posts_featured_image');
    await queryRunner.dropIndex('posts', 'IDX_posts_featured_image');
    await queryRunner.dropColumn('posts', 'featured_image_id');
  }
}
