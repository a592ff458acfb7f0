import { DataSource } from 'typeorm';
import { loadSqliteDriver } from '../../src/database/sqlite-driver';

/**
 * An in-memory SQLite data source for unit tests of database helpers, with the SQLite driver the
 * service itself would load on this Node; `synchronize` creates the entities' tables (migrations are
 * the e2e tests' business).
 */
export function memorySqlite(entities: (new () => object)[]): DataSource {
  return new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    driver: loadSqliteDriver(process.version).driver,
    entities,
    synchronize: true,
  });
}
