import { describe, expect, it } from '@jest/globals';
import { loadSqliteDriver, preferredSqlitePackages } from './sqlite-driver';

describe('SQLite driver choice', () => {
  it('prefers better-sqlite3 13 from Node 22 on and keeps 12 for Node 20', () => {
    expect(preferredSqlitePackages('v20.19.0')).toEqual(['better-sqlite3']);
    expect(preferredSqlitePackages('v22.12.0')).toEqual(['better-sqlite3-13', 'better-sqlite3']);
    expect(preferredSqlitePackages('v24.21.0')).toEqual(['better-sqlite3-13', 'better-sqlite3']);
  });

  it('falls back to 12 when 13 was not installed', () => {
    const load = (name: string) => {
      if (name === 'better-sqlite3-13') throw new Error("Cannot find module 'better-sqlite3-13'\nstack");
      return { name };
    };
    expect(loadSqliteDriver('v24.0.0', load)).toEqual({
      packageName: 'better-sqlite3',
      driver: { name: 'better-sqlite3' },
    });
  });

  it('says which Node and what failed when nothing loads', () => {
    const load = () => {
      throw new Error('was compiled against a different Node.js version\nusing NODE_MODULE_VERSION 115');
    };
    expect(() => loadSqliteDriver('v20.19.0', load)).toThrow(
      /No SQLite driver loads on Node v20\.19\.0 \(better-sqlite3: was compiled against a different Node\.js version\)/,
    );
  });

  it('loads a driver that opens a database on the running Node', () => {
    const { driver } = loadSqliteDriver();
    const Database = driver as new (file: string) => { prepare(sql: string): { get(): unknown }; close(): void };
    const db = new Database(':memory:');
    expect(db.prepare('SELECT 1 + 1 AS two').get()).toEqual({ two: 2 });
    db.close();
  });
});
