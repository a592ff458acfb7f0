import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { appliedMigrationNames, knownMigrationNames } from './applied-migrations';
import { MigrationCommands } from './migration-commands';
import type { MigrationClass } from './module-migrations';

export interface SchemaState {
  applied: number;
  pending: string[];
}

/**
 * Applies the pending migrations at start (unless `DB_MIGRATIONS_RUN=false`), each in its own
 * transaction, before anything else touches the database, and remembers what it did for the start-up
 * summary; `/health/ready` asks it whether the schema is current.
 */
@Injectable()
export class SchemaMigrations implements OnModuleInit {
  appliedAtStart: string[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.dataSource.options.type === 'better-sqlite3') await this.assertSqliteWritable();
    if (!this.config.migrationsRun) return;
    if (this.dataSource.options.type !== 'mysql') {
      this.appliedAtStart = (await this.dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
      return;
    }
    // The service's MySQL connections give up on a statement after DB_QUERY_TIMEOUT_SECONDS; filling a new
    // table from a million events takes longer, so migrations run on a connection of their own without it.
    const { pending } = await this.state();
    if (pending.length === 0) return;
    const logger = new Logger('Database');
    logger.log(
      `applying ${pending.length} migration(s): ${pending.join(', ')} (on large tables this may take minutes)`,
    );
    const commands = new MigrationCommands(
      this.config.databaseUrl,
      this.dataSource.options.migrations as MigrationClass[],
    );
    try {
      this.appliedAtStart = await commands.run((label, total) => {
        let done = 0;
        return {
          advance: (by = 1, note) => logger.log(`${label}: ${(done += by)}/${total} ${note ?? ''}`.trim()),
          stop: () => undefined,
        };
      });
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
