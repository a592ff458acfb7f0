import type { QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Schema steps that a second run of their migration skips where the first one got to. On MySQL/MariaDB
 * each `CREATE`/`ALTER` commits at once, so a migration that failed part-way (a lost connection, a missing
 * privilege, a restart during the first start) leaves its first steps behind while its record is missing;
 * the next start runs it again from the top, and must not stop at what is already there. (SQLite runs a
 * migration's DDL in its transaction: there a failure leaves nothing.)
 */

/** `CREATE TABLE` with its indices and foreign keys, unless the table exists (MySQL makes all three in one statement). */
export async function createTableOnce(queryRunner: QueryRunner, table: Table): Promise<void> {
  await queryRunner.createTable(table, true);
}

export async function addColumnOnce(queryRunner: QueryRunner, table: string, column: TableColumn): Promise<void> {
  if (!(await queryRunner.hasColumn(table, column.name))) await queryRunner.addColumn(table, column);
}

export async function createIndexOnce(queryRunner: QueryRunner, table: string, index: TableIndex): Promise<void> {
  const existing = await queryRunner.getTable(table);
  if (!existing?.indices.some((i) => i.name === index.name)) await queryRunner.createIndex(table, index);
}

export async function createForeignKeyOnce(
  queryRunner: QueryRunner,
  table: string,
  foreignKey: TableForeignKey,
): Promise<void> {
  const existing = await queryRunner.getTable(table);
  // SQLite keeps no constraint names (TypeORM makes some up when it reads them back): the columns and the
  // referenced table say which key it is.
  const same = (f: TableForeignKey) =>
    f.name === foreignKey.name ||
    (f.columnNames.join() === foreignKey.columnNames.join() &&
      f.referencedTableName.split('.').pop() === foreignKey.referencedTableName);
  if (!existing?.foreignKeys.some(same)) await queryRunner.createForeignKey(table, foreignKey);
}

/** Inserts the seed rows whose `key` is not in the table yet; rows a first run wrote keep their values. */
export async function insertMissingRows(
  queryRunner: QueryRunner,
  table: string,
  key: string,
  rows: Record<string, string | number>[],
): Promise<void> {
  const present = await queryRunner.manager
    .createQueryBuilder()
    .select(key, 'k')
    .from(table, 't')
    .getRawMany<{ k: string | number }>();
  const known = new Set(present.map((r) => String(r.k)));
  const missing = rows.filter((row) => !known.has(String(row[key])));
  if (missing.length === 0) return;
  const columns = Object.keys(missing[0]);
  await queryRunner.manager.createQueryBuilder().insert().into(table, columns).values(missing).execute();
}
