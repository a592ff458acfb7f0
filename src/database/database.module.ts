import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { WriteTransactions } from './write-transactions';

/** The data source from `DATABASE_URL`, shared by the HTTP app and the CLI, and the write-transaction runner. */
@Module({})
export class DatabaseModule {
  static forRoot(): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [WriteTransactions],
      exports: [WriteTransactions],
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions({
              url: config.databaseUrl,
              logging: config.databaseLogging,
              queryTimeoutMs: config.databaseQueryTimeoutSeconds * 1000,
            }),
            migrationsRun: config.migrationsRun,
            autoLoadEntities: true,
          }),
        }),
      ],
    };
  }
}
