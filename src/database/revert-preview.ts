import type { DataSource } from 'typeorm';

/** What reverting one migration would undo, in the words a person confirming it needs. */
export interface RevertPreview {
  migration: string;
  /** `table posts and all its rows`, `column posts.trashed_from and its values`, … in the order `down` does them. */
  undoes: string[];
}

const nameOf = (value: unknown): string =>
  typeof value === 'string' ? value : String((value as { name?: unknown } | null)?.name ?? value);

/** How each schema change a `down` may make reads in a confirmation. */
const DESCRIBE: Record<string, (args: unknown[]) => string> = {
  dropTable: ([table]) => `table ${nameOf(table)} and all its rows`,
  dropColumn: ([table, column]) => `column ${nameOf(table)}.${nameOf(column)} and its values`,
  dropColumns: ([table, columns]) =>
    `columns ${(columns as unknown[]).map((c) => `${nameOf(table)}.${nameOf(c)}`).join(', ')} and their values`,
  dropIndex: ([table, index]) => `index ${nameOf(index)} on ${nameOf(table)}`,
  dropForeignKey: ([table, key]) => `foreign key ${nameOf(key)} on ${nameOf(table)}`,
  dropPrimaryKey: ([table]) => `the primary key of ${nameOf(table)}`,
  dropUniqueConstraint: ([table, key]) => `unique constraint ${nameOf(key)} on ${nameOf(table)}`,
  renameTable: ([from, to]) => `table ${nameOf(from)} renamed to ${nameOf(to)}`,
  renameColumn: ([table, from, to]) => `column ${nameOf(table)}.${nameOf(from)} renamed to ${nameOf(to)}`,
  changeColumn: ([table, column]) => `column ${nameOf(table)}.${nameOf(column)} changed`,
  clearTable: ([table]) => `every row of ${nameOf(table)}`,
};

/** Reads a `down` may make to decide what to undo; they run for real. */
const READS = new Set(['getTable', 'getTables', 'hasTable', 'hasColumn', 'hasDatabase', 'hasSchema', 'getView']);

/**
 * What reverting `names` (newest first) would undo, without undoing it: each migration's `down` runs against
 * a query runner that answers its reads and writes down its changes instead of making them. A statement in
 * plain SQL (`query`) is shown as it is, unless it only reads (`SELECT`).
 */
export async function previewRevert(dataSource: DataSource, names: string[]): Promise<RevertPreview[]> {
  const byName = new Map(dataSource.migrations.map((m) => [m.name ?? m.constructor.name, m]));
  const runner = dataSource.createQueryRunner();
  try {
    const previews: RevertPreview[] = [];
    for (const name of names) {
      const migration = byName.get(name);
      const undoes: string[] = [];
      const recording = new Proxy(runner, {
        get(target, property, receiver) {
          const real = Reflect.get(target, property, receiver) as unknown;
          if (typeof property !== 'string' || typeof real !== 'function') return real;
          const method = real as (...args: unknown[]) => unknown;
          if (READS.has(property)) return (...args: unknown[]) => method.apply(target, args);
          if (property === 'query') {
            return (sql: string, parameters?: unknown[]) =>
              /^\s*(SELECT|SHOW|PRAGMA|WITH)\b/i.test(sql)
                ? runner.query(sql, parameters)
                : Promise.resolve(void undoes.push(`SQL: ${sql.trim().replace(/\s+/g, ' ')}`));
          }
          const describe = DESCRIBE[property];
          if (describe || /^(drop|rename|change|clear|create|add|update|delete|insert)/.test(property)) {
            return (...args: unknown[]) =>
              Promise.resolve(
                void undoes.push(describe ? describe(args) : `${property} ${args.map(nameOf).join(' ')}`),
              );
          }
          return (...args: unknown[]) => method.apply(target, args);
        },
      });
      if (migration) await migration.down(recording);
      else undoes.push('(its code is not in this build: only the record that it ran is removed)');
      previews.push({ migration: name, undoes });
    }
    return previews;
  } finally {
    await runner.release();
  }
}

/** The previews as lines for a terminal. */
export function describePreviews(previews: RevertPreview[]): string {
  return previews
    .map(({ migration, undoes }) => `  ${migration}:\n${undoes.map((u) => `    - ${u}`).join('\n') || '    (nothing)'}`)
    .join('\n');
}
