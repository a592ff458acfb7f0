import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';

/** The data source from `DATABASE_URL`, shared by the HTTP app and the CLI. */
@Module({})
export class DatabaseModule {
  static forRoot(): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions({ url: config.databaseUrl, logging: config.databaseLogging }),
            migrationsRun: config.migrationsRun,
            autoLoadEntities: true,
          }),
        }),
      ],
    };
  }
}
