import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { MIGRATIONS } from './migrations';
import type { MigrationClass } from './module-migrations';
import { ChangeHeadEntity } from './changes/change-head.entity';
import { ChangeLogEntity } from './changes/change-log.entity';
import { ChangeLogWriter } from './changes/change-log-writer';
import { ContentVersion } from './content-version';
import { DatabaseContext } from './database-context';
import { Leases } from './leases';
import { DatabaseClock } from './database-clock';
import { ClockSync } from './clock-sync';
import { ReplicaReads } from './replica-reads';
import { mayConnectLater } from './connection-failures';
import { ReplicaHealth } from './replica-health';
import { RawRows } from './raw-rows';
import { ShapedQueries } from './shaped-queries';
import { SchemaMigrations } from './schema-migrations';
import { WriteTransactions } from './write-transactions';
import { CommitSteps } from './commit-steps';
import { StalledServerGuard } from './stalled-server-guard';
import { DERIVED_STORES, type DerivedStore } from './derived-stores';

const SHARED = [
  DatabaseContext,
  DatabaseClock,
  ClockSync,
  Leases,
  ReplicaReads,
  ReplicaHealth,
  ContentVersion,
  RawRows,
  ShapedQueries,
  WriteTransactions,
  CommitSteps,
  SchemaMigrations,
  StalledServerGuard,
];

/**
 * The data source from `DATABASE_URL`, shared by the HTTP app and the CLI, the write-transaction runner
 * and the context that hands the current transaction's manager to whoever asks inside it.
 */
@Module({})
export class DatabaseModule {
  /**
   * @param moduleMigrations migrations that resource modules declared (`@WithMigrations`), run after the base's.
   * @param derivedStores the stores they declared (`@WithDerivedStores`), filled after the migrations.
   */
  static forRoot(
    moduleMigrations: readonly MigrationClass[] = [],
    derivedStores: readonly DerivedStore[] = [],
  ): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      // ChangeLogWriter stays inside: only WriteTransactions writes the log.
      providers: [ChangeLogWriter, { provide: DERIVED_STORES, useValue: derivedStores }, ...SHARED],
      exports: SHARED,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions({
              url: config.databaseUrl,
              logging: config.databaseLogging,
              queryTimeoutMs: config.databaseQueryTimeoutSeconds * 1000,
              readUrls: config.databaseReadUrls,
              isolationPerConnection: true,
            }),
            // A server still starting is waited for (ten tries, three seconds apart); a wrong password or
            // database name fails the start at once instead of after half a minute.
            toRetry: mayConnectLater,
            verboseRetryLog: true,
            // SchemaMigrations applies them, so the start-up summary can say which ran.
            migrationsRun: false,
            migrations: [...MIGRATIONS, ...moduleMigrations],
            // The change log is written by every content write, in the CLI too.
            entities: [ChangeLogEntity, ChangeHeadEntity],
            autoLoadEntities: true,
          }),
        }),
      ],
    };
  }
}
