import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { parseDatabaseUrl, type DatabaseTarget } from './database-url';
import { tlsOptions, sameTls } from './database-tls';
import { DatabaseLogger } from './database-logger';
import { MIGRATIONS } from './migrations';
import { loadSqliteDriver } from './sqlite-driver';

/**
 * MySQL: the isolation level of write transactions (set per connection by `DatabaseContext`). Writes see
 * what other writers committed (slug and duplicate checks after a lock) and take no gap locks, the main
 * source of InnoDB deadlocks between concurrent inserts. Needs ROW or MIXED binlogs.
 */
export const WRITE_ISOLATION_LEVEL = 'READ COMMITTED' as const;

export interface DatabaseSettings {
  url: string;
  logging?: boolean;
  /**
   * MySQL: a statement that has not answered by then fails (and its connection is dropped), so a frozen
   * server gives 503s instead of requests that hang. The service sets it; the migration CLI does not,
   * since a schema change on a large table may rightly take longer.
   */
  queryTimeoutMs?: number;
  /** MySQL read replicas: TypeORM's replication, reads on them (see `ReadRouting`), writes on `url`. */
  readUrls?: string[];
  /**
   * MySQL: the service's data source, whose write transactions `DatabaseContext` runs on connections set to
   * {@link WRITE_ISOLATION_LEVEL} once each. Others (the migrations, the TypeORM CLI) have TypeORM set the
   * level before every transaction.
   */
  isolationPerConnection?: boolean;
}

/**
 * The one place that turns `DATABASE_URL` into TypeORM options, shared by the app and `ormconfig.ts`
 * so the CLI and the service always agree on the schema and migrations.
 */
export function buildDataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  const target = parseDatabaseUrl(settings.url);
  const common = {
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    // Failures reach the exception filter, which logs them once; query logging is opt-in (DB_LOGGING).
    logging: settings.logging ? ('all' as const) : false,
    logger: new DatabaseLogger(settings.logging ?? false),
  };
  if (target.kind === 'sqlite') {
    if ((settings.readUrls ?? []).length > 0) throw new Error('DATABASE_READ_URLS needs a MySQL/MariaDB DATABASE_URL');
    if (target.file !== ':memory:') mkdirSync(dirname(target.file), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      driver: loadSqliteDriver().driver,
      database: target.file,
      // WAL lets readers run while a write transaction is open; the busy timeout queues writers instead of failing.
      enableWAL: target.file !== ':memory:',
      timeout: 5000,
    };
  }
  const readTargets = (settings.readUrls ?? []).map(parseDatabaseUrl);
  if (readTargets.some((t) => t.kind !== 'mysql')) throw new Error('DATABASE_READ_URLS must be mysql:// URLs');
  const replicas = readTargets as Extract<DatabaseTarget, { kind: 'mysql' }>[];
  // TypeORM takes one TLS setting for the primary and every replica alike.
  if (replicas.some((r) => !sameTls(r.connection.tls, target.connection.tls))) {
    throw new Error('DATABASE_READ_URLS: ssl-mode and ssl-ca must be the same as in DATABASE_URL');
  }
  const server = (t: Extract<DatabaseTarget, { kind: 'mysql' }>) => ({
    url: t.url,
    ...(t.connection.socket !== undefined ? { socketPath: t.connection.socket } : {}),
  });
  const servers =
    replicas.length === 0
      ? server(target)
      : {
          replication: {
            master: server(target),
            slaves: replicas.map(server),
            // A replica that failed is tried again after 5 s (the default, 0, drops it for good).
            restoreNodeTimeout: 5000,
            // Everything on the primary unless a request reads from a replica (`ReplicaReads`): background
            // jobs, credentials and anything outside a request see the latest data.
            defaultMode: 'master' as const,
          },
        };
  const ssl = tlsOptions(target.connection.tls);
  return {
    ...common,
    type: 'mysql',
    ...servers,
    ...(ssl ? { ssl } : {}),
    charset: 'utf8mb4_unicode_ci',
    // Datetimes are stored as wall-clock strings; the column name says which zone (…_utc or local).
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    ...(settings.isolationPerConnection ? {} : { isolationLevel: WRITE_ISOLATION_LEVEL }),
    connectTimeout: 5000,
    ...(settings.queryTimeoutMs ? { enableQueryTimeout: true, maxQueryExecutionTime: settings.queryTimeoutMs } : {}),
    // mysql2 captures a stack trace for every query (twice through TypeORM's promise pool) only to
    // decorate the rare driver error; that cost a tenth of a single-event read. Driver errors are still
    // logged with their SQL and code.
    extra: { connectionLimit: 10, trace: false },
  };
}
