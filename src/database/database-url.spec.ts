import { describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { parseDatabaseUrl } from './database-url';

describe('parseDatabaseUrl', () => {
  it('reads SQLite paths relative to the working directory', () => {
    expect(parseDatabaseUrl('sqlite:./data/x.sqlite')).toEqual({ kind: 'sqlite', file: resolve('data/x.sqlite') });
    expect(parseDatabaseUrl('sqlite:///var/lib/cal.sqlite')).toEqual({ kind: 'sqlite', file: '/var/lib/cal.sqlite' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', file: ':memory:' });
  });

  it('reads MySQL and MariaDB URLs', () => {
    expect(parseDatabaseUrl('mysql://u:p@h:3306/cal')).toEqual({
      kind: 'mysql',
      url: 'mysql://u:p@h:3306/cal',
      database: 'cal',
    });
    expect(parseDatabaseUrl('mariadb://u@h/cal').kind).toBe('mysql');
  });

  it('refuses a MySQL URL without a database', () => {
    expect(() => parseDatabaseUrl('mysql://u@h:3306/')).toThrow(/database/);
  });
});
