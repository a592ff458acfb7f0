/**
 * Values one statement binds at most: SQLite refuses a statement past 32,766, and a series of 4,000
 * occurrences with seven terms gave one of 56,000. Longer row lists go in several statements of this size,
 * smaller than SQLite's limit because TypeORM's builder spends more per value the more values a statement has.
 */
export const MAX_VALUES_PER_STATEMENT = 1_000;

/** `rows` cut into runs of at most {@link MAX_VALUES_PER_STATEMENT} values, `width` per row. */
export function statementRuns<T>(rows: readonly T[], width: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_VALUES_PER_STATEMENT / Math.max(1, width)));
  const runs: T[][] = [];
  for (let start = 0; start < rows.length; start += size) runs.push(rows.slice(start, start + size));
  return runs;
}
