import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { dateTimeColumn, intColumn, stringColumn } from './portable-columns';
import { createTableOnce } from './schema-steps';

/**
 * `site_identity`: the host that `global_id` and iCalendar UIDs are made of, recorded once (SiteIdentity), so
 * neither changes when `PUBLIC_URL` or the `Host` a request names does.
 */
export class AddSiteIdentity1765200000000 implements MigrationInterface {
  name = 'AddSiteIdentity1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'site_identity',
        columns: [
          intColumn('id', { isPrimary: true }),
          stringColumn('global_id_host', 255),
          dateTimeColumn('recorded_utc'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('site_identity');
  }
}
