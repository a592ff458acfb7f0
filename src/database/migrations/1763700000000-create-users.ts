import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { dateTimeColumn, idColumn, intColumn, stringColumn } from './portable-columns';
import { createForeignKeyOnce, createTableOnce } from './schema-steps';

/** Users with a role, their application passwords, and posts.author_id → users.id. */
export class CreateUsers1763700000000 implements MigrationInterface {
  name = 'CreateUsers1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'users',
        columns: [
          idColumn(),
          stringColumn('login', 60),
          stringColumn('display_name', 250),
          stringColumn('email', 100, { isNullable: true }),
          stringColumn('role', 20),
          dateTimeColumn('registered_utc'),
        ],
        uniques: [
          { name: 'UQ_users_login', columnNames: ['login'] },
          { name: 'UQ_users_email', columnNames: ['email'] },
        ],
      }),
    );
    await createTableOnce(
      queryRunner,
      new Table({
        name: 'application_passwords',
        columns: [
          stringColumn('id', 36, { isPrimary: true }),
          intColumn('user_id'),
          stringColumn('name', 100),
          stringColumn('password_hash', 255),
          dateTimeColumn('created_utc'),
          dateTimeColumn('last_used_utc', { isNullable: true }),
          stringColumn('last_ip', 45, { isNullable: true }),
        ],
        indices: [{ name: 'IDX_application_passwords_user', columnNames: ['user_id'] }],
        foreignKeys: [
          {
            name: 'FK_application_passwords_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await createForeignKeyOnce(
      queryRunner,
      'posts',
      new TableForeignKey({
        name: 'FK_posts_author',
        columnNames: ['author_id'],
        referencedTableName: 'users',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropForeignKey('posts', 'FK_posts_author');
    await queryRunner.dropTable('application_passwords');
    await queryRunner.dropTable('users');
  }
}
