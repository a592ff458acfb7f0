import { TableForeignKey, type QueryRunner, type TableColumnOptions } from 'typeorm';

/**
 * Column shapes that mean the same on SQLite, MariaDB and MySQL 8. Migrations use these instead of
 * dialect types so every schema change runs on all three.
 */
export const idColumn = (name = 'id'): TableColumnOptions => ({
  name,
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
});

export const intColumn = (name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
  name,
  type: 'integer',
  isNullable: false,
  ...options,
});

export const stringColumn = (
  name: string,
  length: number,
  options: Partial<TableColumnOptions> = {},
): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isNullable: false, ...options });

export const dateTimeColumn = (name: string, options: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
  name,
  type: 'datetime',
  isNullable: false,
  ...options,
});

export const booleanColumn = (name: string, defaultValue: boolean): TableColumnOptions => ({
  name,
  type: 'boolean',
  isNullable: false,
  default: defaultValue ? 1 : 0,
});

/**
 * Long text. MySQL's TEXT stops at 64 KiB, which a rich description can pass, so MySQL gets MEDIUMTEXT;
 * SQLite's TEXT has no such limit. This is the one dialect branch the schema needs.
 */
export const longTextColumn = (
  queryRunner: QueryRunner,
  name: string,
  options: Partial<TableColumnOptions> = {},
): TableColumnOptions => ({
  name,
  type: queryRunner.connection.options.type === 'mysql' ? 'mediumtext' : 'text',
  isNullable: false,
  ...options,
});

/** A foreign key from `column` to `posts.id` that deletes the row with its post (companions, links). */
export const cascadeToPost = (name: string, column: string): TableForeignKey =>
  new TableForeignKey({
    name,
    columnNames: [column],
    referencedTableName: 'posts',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });

/** A foreign key from `term_id` to `terms.id` that deletes the row with its term (relationships, counts). */
export const cascadeToTerm = (name: string): TableForeignKey =>
  new TableForeignKey({
    name,
    columnNames: ['term_id'],
    referencedTableName: 'terms',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });

/**
 * A string compared byte for byte, as SQLite compares text: MySQL's default collations would call "é" and
 * "e" (or "ß" and "s") equal and break a primary key the application folded differently.
 */
export const binaryStringColumn = (
  queryRunner: QueryRunner,
  name: string,
  length: number,
  options: Partial<TableColumnOptions> = {},
): TableColumnOptions => ({
  ...stringColumn(name, length, options),
  ...(queryRunner.connection.options.type === 'mysql' ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}),
});
