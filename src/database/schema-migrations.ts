import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { appliedMigrationNames, knownMigrationNames } from './applied-migrations';
import { MigrationCommands } from './migration-commands';
import { DERIVED_STORES, type DerivedStore, fillDerivedStores, staleStores } from './derived-stores';
import type { MigrationClass } from './module-migrations';

export interface SchemaState {
  applied: number;
  pending: string[];
}

/**
 * Applies the pending migrations at start (unless `DB_MIGRATIONS_RUN=false`), each in its own
 * transaction, before anything else touches the database, then fills the modules' derived stores that are
 * stale, and remembers what it did for the start-up summary; `/health/ready` asks it whether the schema is
 * current.
 */
@Injectable()
export class SchemaMigrations implements OnModuleInit {
  appliedAtStart: string[] = [];
  filledAtStart: string[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Inject(DERIVED_STORES) private readonly stores: readonly DerivedStore[],
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.dataSource.options.type === 'better-sqlite3') await this.assertSqliteWritable();
    if (!this.config.migrationsRun) return;
    const logger = new Logger('Database');
    if (this.dataSource.options.type !== 'mysql') {
      this.appliedAtStart = (await this.dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
      const stale = await staleStores(this.dataSource, this.stores);
      if (stale.length > 0) logger.log(`filling derived data: ${stale.map((s) => s.name).join(', ')}`);
      this.filledAtStart = await fillDerivedStores(this.dataSource, stale, false);
      return;
    }
    // The service's MySQL connections give up on a statement after DB_QUERY_TIMEOUT_SECONDS; filling a new
    // table from a million events takes longer, so migrations run on a connection of their own without it.
    const { pending } = await this.state();
    const stale = pending.length > 0 ? this.stores : await staleStores(this.dataSource, this.stores);
    if (pending.length === 0 && stale.length === 0) return;
    if (pending.length > 0) {
      logger.log(
        `applying ${pending.length} migration(s): ${pending.join(', ')} (on large tables this may take minutes)`,
      );
    } else {
      logger.log(`filling derived data: ${stale.map((s) => s.name).join(', ')}`);
    }
    const commands = new MigrationCommands(
      this.config.databaseUrl,
      this.dataSource.options.migrations as MigrationClass[],
      this.stores,
    );
    try {
      this.appliedAtStart = await commands.run((label, total) => {
        let done = 0;
        return {
          advance: (by = 1, note) => logger.log(`${label}: ${(done += by)}/${total} ${note ?? ''}`.trim()),
          stop: () => undefined,
        };
      });
      this.filledAtStart = commands.filledByRun;
    } finally {
      await commands.close();
    }
  }

  /**
   * SQLite opens a file it may not write read-only without a word, and the service would answer every write
   * 503: a schema change in a transaction that is rolled back fails the start instead (SQLITE_READONLY,
   * whose hint names the file's folder and owner).
   */
  private async assertSqliteWritable(): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.query('BEGIN IMMEDIATE');
      try {
        await runner.query('CREATE TABLE cal_write_check (id INTEGER)');
      } finally {
        await runner.query('ROLLBACK');
      }
    } finally {
      await runner.release();
    }
  }

  async state(): Promise<SchemaState> {
    const applied = new Set(await appliedMigrationNames(this.dataSource));
    return {
      applied: applied.size,
      pending: knownMigrationNames(this.dataSource).filter((name) => !applied.has(name)),
    };
  }
}
