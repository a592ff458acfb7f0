import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

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
export class DatabaseContext {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  /**
   * Inserts rows and does not read them back: `manager.insert` re-selects every column that has a
   * default, one more statement per insert, which writes never need when they set every column.
   */
  async insertOnly<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    rows: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[],
  ): Promise<void> {
    await this.manager.createQueryBuilder().insert().into(entity).values(rows).updateEntity(false).execute();
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /** Only for `WriteTransactions`, which adds the retries and the SQLite writer lock. */
  inNewTransaction<T>(work: () => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }

  /**
   * Runs `work` in a savepoint of the current transaction: when it fails, only its own statements are
   * undone and the transaction goes on (used to try the next slug after a unique-key race).
   */
  inSavepoint<T>(work: () => Promise<T>): Promise<T> {
    return this.manager.transaction((manager) => this.current.run(manager, work));
  }
}
