import { isAbsolute, resolve } from 'node:path';

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'mysql'; url: string; database: string };

/**
 * Reads `DATABASE_URL`: `sqlite:<path>` (relative to the working directory, or `:memory:`)
 * or `mysql://user:pass@host:port/database` (`mariadb://` is accepted as an alias).
 */
export function parseDatabaseUrl(raw: string): DatabaseTarget {
  if (raw.startsWith('sqlite:')) {
    let file = raw.slice('sqlite:'.length);
    if (file.startsWith('//')) file = file.slice(2);
    if (file === '') throw new Error('DATABASE_URL: sqlite: needs a file path');
    if (file !== ':memory:' && !isAbsolute(file)) file = resolve(process.cwd(), file);
    return { kind: 'sqlite', file };
  }
  const normalised = raw.replace(/^mariadb:\/\//, 'mysql://');
  let parsed: URL;
  try {
    parsed = new URL(normalised);
  } catch {
    throw new Error('DATABASE_URL is not a valid URL');
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (parsed.protocol !== 'mysql:' || database === '') {
    throw new Error('DATABASE_URL must look like mysql://user:pass@host:3306/database');
  }
  return { kind: 'mysql', url: normalised, database };
}
