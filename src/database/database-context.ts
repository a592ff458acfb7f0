import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DataSource, type EntityManager, type EntityTarget, type ObjectLiteral, type QueryRunner } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { RecordedChange } from './changes/recorded-change';
import { WRITE_ISOLATION_LEVEL } from './data-source-options';
import { InsertShapes } from './insert-shapes';
import { openSqliteReads } from './sqlite-reads';
import { statementRuns } from './statement-runs';
import { ReplicaRunners, type ReplicaScope } from './replica-runner';
import { lockBuckets, writeLockBucket } from './write-locks';

/** How many values a row binds at most: its columns when named, else its entity's, else its own properties. */
function widthOf(
  manager: EntityManager,
  target: EntityTarget<ObjectLiteral>,
  rows: readonly object[],
  columns?: readonly string[],
): number {
  if (columns) return columns.length;
  if (manager.connection.hasMetadata(target)) return manager.connection.getMetadata(target).columns.length;
  return Math.max(0, ...rows.map((row) => Object.keys(row).length));
}

interface TransactionScope {
  manager: EntityManager;
  /** What the write changed, for the change log (written when the transaction ends). */
  changes: RecordedChange[];
  /** Buckets of `write_locks` this transaction holds. */
  lockedBuckets: Set<number>;
}

/**
 * The one way services reach the database. Inside `WriteTransactions.run` the manager is that
 * transaction's, carried by Node's async context rather than by parameters, so a helper called from a
 * write can never read or write beside the transaction by forgetting an argument; outside one it is
 * the data source's.
 *
 * Why not `@nestjs-cls/transactional`: it is CommonJS and loads `@nestjs/common`, which is ESM-only
 * since Nest 12; Jest cannot load that on Node 20 and 22, and the only nestjs-cls line that might
 * needs Node 22. `AsyncLocalStorage` is the primitive it is built on, and all we need of it.
 */
@Injectable()
export class DatabaseContext implements OnModuleInit, OnApplicationShutdown {
  private readonly current = new AsyncLocalStorage<TransactionScope>();
  /**
   * A request whose reads go to one replica: the connection it took, once it has read, and the primary's
   * it took instead when the replica was lost under it.
   */
  private readonly replicaReads = new AsyncLocalStorage<ReplicaScope>();
  /** Connections to replicas that fall back to the primary; ReplicaHealth sets its check into `hooks`. */
  readonly replicaRunners: ReplicaRunners;
  /** Whether `DATABASE_READ_URLS` named replicas (TypeORM replication, primary by default). */
  readonly hasReplicas: boolean;
  private readonly inserts = new InsertShapes();
  /** MySQL connections whose session already runs its transactions at {@link WRITE_ISOLATION_LEVEL}. */
  private readonly writeSessions = new WeakSet<object>();
  /** SQLite: the read-only connection for reads outside write transactions (`sqlite-reads.ts`). */
  private sqliteReads: DataSource | null = null;

  constructor(private readonly dataSource: DataSource) {
    this.hasReplicas = 'replication' in dataSource.options && dataSource.options.replication !== undefined;
    this.replicaRunners = new ReplicaRunners(dataSource);
  }

  async onModuleInit(): Promise<void> {
    this.sqliteReads = await openSqliteReads(this.dataSource);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sqliteReads?.destroy();
    this.sqliteReads = null;
  }

  get manager(): EntityManager {
    const transaction = this.current.getStore();
    if (transaction) return transaction.manager;
    const replica = this.replicaReads.getStore();
    if (!replica) return this.readsOutsideTransactions;
    // One replica connection for the whole request: its content version and its rows come from the same
    // server, so a cached answer is never keyed by a version newer than its data.
    replica.runner ??= this.replicaRunners.runner(replica);
    return replica.runner.manager;
  }

  /**
   * Where reads outside a write transaction go when no replica serves the request: SQLite's read-only
   * connection, else the data source. Never a transaction's uncommitted rows.
   */
  get readsOutsideTransactions(): EntityManager {
    return this.sqliteReads?.manager ?? this.dataSource.manager;
  }

  /**
   * For a single-statement write outside a write transaction: the current transaction's manager, else the
   * primary's (never SQLite's read-only connection). Only through `WriteTransactions.single`, which queues
   * it behind SQLite's writer.
   */
  get writesOutsideTransactions(): EntityManager {
    return this.current.getStore()?.manager ?? this.dataSource.manager;
  }

  /** Whether this request reads from a replica (outside write transactions). */
  get readsFromReplica(): boolean {
    return !this.current.getStore() && this.replicaReads.getStore() !== undefined;
  }

  /**
   * Runs a request's work with its reads on one replica; the connection goes back to the pool when
   * `finished` resolves (the response is done). Without replicas, just runs it.
   */
  withReplicaReads<T>(finished: Promise<void>, work: () => T): T {
    if (!this.hasReplicas) return work();
    const scope: ReplicaScope = { runner: null, fallback: null };
    void finished.then(async () => {
      await scope.runner?.release().catch(() => undefined);
      await scope.fallback?.release().catch(() => undefined);
    });
    return this.replicaReads.run(scope, work);
  }

  /**
   * Runs `work` as if no request or transaction had started it: its reads on the primary, its writes in
   * transactions of their own. For background work a request sets off and does not wait for.
   */
  outsideRequest<T>(work: () => T): T {
    return this.replicaReads.exit(() => this.current.exit(work));
  }

  /**
   * Notes a change of a resource for the change log, which `WriteTransactions` writes as the
   * transaction's last statements: only a write that commits is ever announced.
   */
  recordChange(...changes: RecordedChange[]): void {
    const scope = this.current.getStore();
    if (!scope) throw new Error('a change can only be recorded inside a write transaction');
    scope.changes.push(...changes);
  }

  /** The changes recorded so far in the current transaction. */
  get recordedChanges(): readonly RecordedChange[] {
    return this.current.getStore()?.changes ?? [];
  }

  /**
   * Forgets the changes recorded after the first `count` of the current transaction: what a rollback to a
   * savepoint undid must not be announced (its derived rows, its change records) when the rest commits.
   */
  forgetChangesAfter(count: number): void {
    const scope = this.current.getStore();
    if (scope && scope.changes.length > count) scope.changes.length = count;
  }

  /**
   * Inserts rows and does not read them back: `manager.insert` re-selects every column that has a
   * default, one more statement per insert, which writes never need when they set every column.
   * `columns`: for a table without an entity, the columns the rows' properties fill.
   */
  async insertOnly<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    rows: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[],
    columns?: string[],
  ): Promise<void> {
    const manager = this.manager;
    const all = Array.isArray(rows) ? rows : [rows];
    await this.inRuns(all, widthOf(manager, entity, all, columns), (run) =>
      manager.query(...this.inserts.statement(manager, entity, run, columns)),
    );
  }

  /** {@link insertOnly} for one row whose id the database generates; returns that id. */
  async insertReturningId<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    row: QueryDeepPartialEntity<T>,
  ): Promise<number> {
    const manager = this.manager;
    const raw: unknown = await manager.query(...this.inserts.statement(manager, entity, [row]));
    // mysql2 answers a result header with `insertId`; TypeORM's SQLite query runner the row id itself.
    const id = Number(insertIdOf(raw));
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error('the database did not report the new row id');
    return id;
  }

  /**
   * Inserts rows, or where a row with the same `keyColumns` (the table's primary key) exists, overwrites its
   * `overwrite` columns with the new row's: one statement on both databases, like TypeORM's `orUpdate`
   * (MySQL through `VALUES()`, as `orUpdate` writes it: deprecated by MySQL 8, still supported there, and the
   * row alias that replaces it is missing from MariaDB).
   */
  async upsert<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    rows: QueryDeepPartialEntity<T>[],
    overwrite: string[],
    keyColumns: string[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const manager = this.manager;
    const columns = overwrite.map((c) => manager.connection.driver.escape(c));
    const suffix = onConflict(manager, keyColumns, (mysql) =>
      columns.map((c) => (mysql ? `${c} = VALUES(${c})` : `${c} = EXCLUDED.${c}`)).join(', '),
    );
    await this.inRuns(rows, widthOf(manager, entity, rows), (run) => {
      const [insert, parameters] = this.inserts.statement(manager, entity, run);
      return manager.query(`${insert} ${suffix}`, parameters);
    });
  }

  /**
   * Adds `delta` to `column` of each keyed row, creating the rows that do not exist yet with `delta`: one
   * statement however many rows, exact under concurrent writers (the database's upsert takes the row
   * lock), on SQLite (`ON CONFLICT … DO UPDATE`) and MySQL/MariaDB (`ON DUPLICATE KEY UPDATE`, without
   * `VALUES()`, which MySQL 8 deprecates and MariaDB's row-alias alternative lacks). TypeORM's own
   * `orUpdate` only overwrites. `keyColumns` must be the table's primary key.
   */
  async addToCounters(
    table: string,
    keyColumns: string[],
    column: string,
    keys: Record<string, string | number>[],
    delta: number,
  ): Promise<void> {
    if (keys.length === 0) return;
    if (!Number.isSafeInteger(delta)) throw new Error(`counter delta must be an integer, got ${delta}`);
    const manager = this.manager;
    const rows = keys.map((key) => ({ ...key, [column]: delta }));
    const columns = [...keyColumns, column];
    const counter = manager.connection.driver.escape(column);
    const suffix = onConflict(manager, keyColumns, () => `${counter} = ${counter} + ${delta}`);
    await this.inRuns(rows, columns.length, (run) => {
      const [insert, parameters] = this.inserts.statement(manager, table, run, columns);
      return manager.query(`${insert} ${suffix}`, parameters);
    });
  }

  /**
   * Writes a row read earlier in this transaction under its write lock (so nothing else changed it since)
   * in one `UPDATE` by primary key: every other column, or with `before` (a copy taken when it was read)
   * only those that differ from it, and nothing when none does. TypeORM's `save` reads the row again first
   * to find out whether it exists and what changed: one round trip more per saved row.
   */
  async updateRow<T extends ObjectLiteral>(target: EntityTarget<T>, row: T, before?: T): Promise<void> {
    const manager = this.manager;
    const metadata = manager.connection.getMetadata(target);
    const key: Record<string, unknown> = {};
    for (const column of metadata.primaryColumns) key[column.propertyName] = column.getEntityValue(row);
    const changes: Record<string, unknown> = {};
    for (const column of metadata.columns) {
      if (column.isPrimary) continue;
      const value: unknown = column.getEntityValue(row);
      if (before === undefined || !sameValue(value, column.getEntityValue(before)))
        changes[column.propertyName] = value;
    }
    if (Object.keys(changes).length === 0) return;
    await manager.update(target, key, changes as never);
  }

  /** One statement per run of `rows` (`statementRuns`), the loop given away between them. */
  private async inRuns<T>(rows: readonly T[], width: number, statement: (run: T[]) => Promise<unknown>): Promise<void> {
    for (const [index, run] of statementRuns(rows, width).entries()) {
      if (index > 0) await this.yieldTurn();
      await statement(run);
    }
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /**
   * Lets the event loop answer other requests between the steps of long work, where that is safe. A MySQL
   * transaction has a connection of its own, so others read beside it; on SQLite others read through the
   * read-only connection and their writes wait for the writer lock (`WriteTransactions`). An in-memory SQLite
   * database has no second connection, and its one would show others this transaction's uncommitted rows:
   * there a transaction keeps the loop.
   */
  async yieldTurn(): Promise<void> {
    if (this.inTransaction && this.dataSource.options.type === 'better-sqlite3' && !this.sqliteReads) return;
    await nextTurn();
  }

  /**
   * Holds the write locks named by `keys` until the transaction ends (see write-locks.ts): one statement
   * for all of them, none for those the transaction already holds, so a write that locks every name it
   * will look up first pays one round trip, and the look-ups that lock their name again pay none.
   */
  async lockForWrite(keys: string[]): Promise<void> {
    const scope = this.current.getStore();
    if (!scope) throw new Error('a write lock is only held inside a write transaction');
    const buckets = [...new Set(keys.map(writeLockBucket))]
      .filter((bucket) => !scope.lockedBuckets.has(bucket))
      .sort((a, b) => a - b);
    await lockBuckets(scope.manager, buckets);
    for (const bucket of buckets) scope.lockedBuckets.add(bucket);
  }

  /**
   * Only for `WriteTransactions`, which adds the retries and the SQLite writer lock. On MySQL the isolation
   * level is set once per connection (`SET SESSION`) rather than before every transaction, as TypeORM's
   * `isolationLevel` option would: one round trip less per write.
   */
  async inNewTransaction<T>(work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner('master');
    try {
      await this.prepareWriteSession(runner);
      await runner.startTransaction();
      try {
        const result = await this.current.run({ manager: runner.manager, changes: [], lockedBuckets: new Set() }, work);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        // The work's error is what the caller must see; a failed rollback ends with the connection anyway.
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  private async prepareWriteSession(runner: QueryRunner): Promise<void> {
    if (this.dataSource.options.type !== 'mysql') return;
    const connection: unknown = await runner.connect();
    if (typeof connection !== 'object' || connection === null) throw new Error('no MySQL connection to prepare');
    if (this.writeSessions.has(connection)) return;
    await runner.query(`SET SESSION TRANSACTION ISOLATION LEVEL ${WRITE_ISOLATION_LEVEL}`);
    this.writeSessions.add(connection);
  }

  /**
   * Runs one statement that may fail on a unique key inside the current transaction, which goes on
   * after the failure: InnoDB and SQLite undo only the failed statement (a savepoint would cost two more
   * round trips per write; PostgreSQL, which aborts the whole transaction, is not a target).
   */
  attemptStatement<T>(statement: () => Promise<T>): Promise<T> {
    return statement();
  }
}

/** The clause that turns an INSERT into an upsert on the table's primary key `keyColumns`, per database. */
function onConflict(manager: EntityManager, keyColumns: string[], assignments: (mysql: boolean) => string): string {
  const driver = manager.connection.driver;
  if (driver.supportedUpsertTypes.includes('on-duplicate-key-update')) {
    return `ON DUPLICATE KEY UPDATE ${assignments(true)}`;
  }
  return `ON CONFLICT (${keyColumns.map((c) => driver.escape(c)).join(', ')}) DO UPDATE SET ${assignments(false)}`;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime());
}

function insertIdOf(raw: unknown): unknown {
  return typeof raw === 'object' && raw !== null && 'insertId' in raw ? raw.insertId : raw;
}
