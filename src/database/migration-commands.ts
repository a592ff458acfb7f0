import { previewRevert, type RevertPreview } from './revert-preview';
import { Logger as NestLogger } from '@nestjs/common';
import { DataSource, type Logger } from 'typeorm';
import type { Progress } from '../common/progress/progress';
import { appliedMigrationNames, knownMigrationNames } from './applied-migrations';
import { buildDataSourceOptions } from './data-source-options';
import { withDatabaseLock } from './database-lock';
import { rebuildDerivedData } from './derived-data';
import { type DerivedStore, fillDerivedStores } from './derived-stores';
import { withMigrationRetries } from './migration-retry';
import type { MigrationClass } from './module-migrations';

export interface MigrationState {
  applied: string[];
  pending: string[];
  /**
   * Recorded as applied, but no loaded module declares them: an extension's migrations while
   * `CAL_EXTENSIONS` does not name it (its tables are there; nothing here can revert them).
   */
  unknown: string[];
}

type ProgressFactory = (label: string, total: number) => Progress;

/** How long a migrating process waits for another one that is migrating the same database. */
const MIGRATION_LOCK_WAIT_SECONDS = 600;
/** Runs of the pending migrations after a retryable server error (`migration-retry.ts`). */
const MIGRATION_ATTEMPTS = 3;

/**
 * The schema commands of the CLI (`migrations:show|run|revert`), on a data source of their own: no
 * statement timeout (a schema change on a large table may take long) and the same migrations, in the
 * same order, as the service applies at start.
 */
export class MigrationCommands {
  private readonly dataSource: DataSource;
  private onApplied: (name: string) => void = () => undefined;
  /** The derived stores the last `run` filled (stale, or new with a migration). */
  filledByRun: string[] = [];

  /** @param stores the modules' derived stores (`derivedStoresOf`), filled after the migrations when stale. */
  constructor(
    url: string,
    migrations: readonly MigrationClass[],
    private readonly stores: readonly DerivedStore[] = [],
  ) {
    const options = buildDataSourceOptions({ url });
    this.dataSource = new DataSource({
      ...options,
      migrations: [...migrations],
      logger: this.progressLogger(),
    });
  }

  async state(): Promise<MigrationState> {
    await this.open();
    const names = knownMigrationNames(this.dataSource);
    const recorded = await appliedMigrationNames(this.dataSource);
    const applied = new Set(recorded);
    const known = new Set(names);
    return {
      applied: names.filter((n) => applied.has(n)),
      pending: names.filter((n) => !applied.has(n)),
      unknown: recorded.filter((n) => !known.has(n)),
    };
  }

  /**
   * Applies the pending migrations, each in its own transaction, then fills the derived stores that are
   * stale (`filledByRun`); returns the migrations' names.
   */
  async run(progress: ProgressFactory): Promise<string[]> {
    await this.open();
    return this.exclusively(async () => {
      const applied = await this.applyPending(progress);
      this.filledByRun = await fillDerivedStores(this.dataSource, this.stores, false);
      return applied;
    });
  }

  private async applyPending(progress: ProgressFactory): Promise<string[]> {
    // Read after the lock: another instance that held it may have applied them.
    const { pending } = await this.state();
    if (pending.length === 0) return [];
    const bar = progress('applying migrations', pending.length);
    this.onApplied = (name) => bar.advance(1, name);
    try {
      await withMigrationRetries(
        () => this.dataSource.runMigrations({ transaction: 'each' }),
        MIGRATION_ATTEMPTS,
        (error, attempt) =>
          new NestLogger('Database').warn(
            `migrations failed (attempt ${attempt}), running them again: ${String(error)}`,
          ),
      );
      const { applied } = await this.state();
      return pending.filter((name) => applied.includes(name));
    } finally {
      bar.stop();
      this.onApplied = () => undefined;
    }
  }

  /** One migrating process per database at a time (see `withDatabaseLock`). */
  private exclusively<T>(work: () => Promise<T>): Promise<T> {
    return withDatabaseLock(this.dataSource, 'migrations', MIGRATION_LOCK_WAIT_SECONDS, work);
  }

  /** Reverts the newest `count` applied migrations (all of them with `Infinity`); returns their names. */
  async revert(count: number, progress: ProgressFactory): Promise<string[]> {
    await this.open();
    return this.exclusively(() => this.revertNow(count, progress));
  }

  /** What reverting the newest `count` migrations would undo, newest first; nothing is changed. */
  async previewRevert(count: number): Promise<RevertPreview[]> {
    await this.open();
    const { applied } = await this.state();
    return previewRevert(this.dataSource, applied.slice(Math.max(0, applied.length - count)).reverse());
  }

  private async revertNow(count: number, progress: ProgressFactory): Promise<string[]> {
    const { applied } = await this.state();
    const todo = applied.slice(Math.max(0, applied.length - count)).reverse();
    if (todo.length === 0) return [];
    const bar = progress('reverting migrations', todo.length);
    try {
      for (const name of todo) {
        await this.dataSource.undoLastMigration({ transaction: 'each' });
        bar.advance(1, name);
      }
    } finally {
      bar.stop();
    }
    return todo;
  }

  /** `derived:rebuild`: see `rebuildDerivedData`. */
  async rebuildDerived(): Promise<{ searchWords: number; stores: string[] }> {
    await this.open();
    return this.exclusively(() => rebuildDerivedData(this.dataSource, this.stores));
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  private async open(): Promise<void> {
    if (!this.dataSource.isInitialized) await this.dataSource.initialize();
  }

  private progressLogger(): Logger {
    const quiet = () => undefined;
    return {
      logQuery: quiet,
      logQueryError: quiet,
      logQuerySlow: quiet,
      log: quiet,
      logMigration: quiet,
      // TypeORM reports each applied migration as "Migration <name> has been executed successfully."
      logSchemaBuild: (message: string) => {
        const name = /^Migration (\S+) has been executed successfully/.exec(message)?.[1];
        if (name) this.onApplied(name);
      },
    };
  }
}
