import { Column } from 'typeorm';
import type { ValueTransformer } from 'typeorm';

const pad = (n: number): string => String(n).padStart(2, '0');

/** Formats a Date's UTC fields as `YYYY-MM-DD HH:MM:SS`. */
export function formatSqlDateTime(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/** A UTC `YYYY-MM-DD HH:MM:SS` as Unix milliseconds. */
export const sqlUtcToMs = (value: string): number => Date.parse(`${value.replace(' ', 'T')}Z`);

/**
 * Keeps datetime columns as plain `YYYY-MM-DD HH:MM:SS` strings on every driver.
 * mysql2 runs with `dateStrings`, SQLite stores text, and TypeORM's SQLite driver hands back a Date
 * read as UTC: normalising here means entities never carry a time zone the column does not have.
 */
export const sqlDateTime: ValueTransformer = {
  to: (value: unknown) => (value instanceof Date ? formatSqlDateTime(value) : value),
  from: (value: unknown) => {
    if (value === null || value === undefined) return value;
    if (value instanceof Date) return formatSqlDateTime(value);
    return typeof value === 'string' ? value.slice(0, 19).replace('T', ' ') : value;
  },
};

/**
 * A datetime column holding `YYYY-MM-DD HH:MM:SS` (the column name says the zone). The migrations
 * create real DATETIME columns; the entity maps them as text on purpose: TypeORM's SQLite driver
 * re-parses datetime strings with `new Date()` in the server's local zone and appends milliseconds,
 * which would shift times on a non-UTC server and break exact bounds (`end ≤ 22:00:00`) in queries.
 */
export function DateTimeColumn(name: string, options: { nullable?: boolean } = {}): PropertyDecorator {
  return Column({ name, type: 'varchar', length: 19, nullable: options.nullable ?? false, transformer: sqlDateTime });
}

/**
 * BIGINT columns as numbers: mysql2 returns them as strings (they may exceed 2^53; sequence values never
 * will), SQLite as numbers.
 */
export const bigintNumber: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? value : Number(value)),
};
