import type { ValueTransformer } from 'typeorm';

const pad = (n: number): string => String(n).padStart(2, '0');

/** Formats a Date's UTC fields as `YYYY-MM-DD HH:MM:SS`. */
export function formatSqlDateTime(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

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
