import type { DataSource } from 'typeorm';

export const MIGRATIONS_TABLE = 'schema_migrations';

/** Names of the migrations recorded as applied, oldest first (none before the first run). */
export async function appliedMigrationNames(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    if (!(await runner.hasTable(MIGRATIONS_TABLE))) return [];
    const rows = (await runner.query(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`)) as { name: string }[];
    return rows.map((r) => r.name);
  } finally {
    await runner.release();
  }
}

/**
 * The migrations a data source knows of, by name, in the order they run: TypeORM runs them by the
 * timestamp their names end with (the base's and the modules' interleaved), ties in list order.
 */
export function knownMigrationNames(dataSource: DataSource): string[] {
  const timestampOf = (name: string) => Number(/(\d{13})$/.exec(name)?.[1] ?? 0);
  return dataSource.migrations
    .map((m) => m.name ?? m.constructor.name)
    .map((name, index) => ({ name, index }))
    .sort((a, b) => timestampOf(a.name) - timestampOf(b.name) || a.index - b.index)
    .map((m) => m.name);
}
