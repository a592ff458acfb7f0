import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { cascadeToPost, intColumn } from '../../database/migrations/portable-columns';
import { createTableOnce } from '../../database/migrations/schema-steps';

/** `venue_geo`: a venue's coordinates, indexed for the bounding-box prefilter of radius searches. */
export class CreateVenueGeo1764200000000 implements MigrationInterface {
  name = 'CreateVenueGeo1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'venue_geo',
        columns: [
          intColumn('post_id', { isPrimary: true }),
          { name: 'lat', type: 'decimal', precision: 9, scale: 6, isNullable: false },
          { name: 'lng', type: 'decimal', precision: 9, scale: 6, isNullable: false },
        ],
        indices: [{ name: 'IDX_venue_geo_lat_lng', columnNames: ['lat', 'lng'] }],
        foreignKeys: [cascadeToPost('FK_venue_geo_post', 'post_id')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('venue_geo');
  }
}
