import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from './config/app-config';
import { AppConfigModule, type AppConfigOptions } from './config/app-config.module';
import { PostsModule } from './core/posts/posts.module';
import { TermsModule } from './core/terms/terms.module';
import { buildDataSourceOptions } from './database/data-source-options';
import { DiscoveryModule } from './discovery/discovery.module';
import { HealthModule } from './health/health.module';

/**
 * The application: configuration, database, the posts/terms base and the resource modules.
 * A resource module is added to `imports` and brings its own routes, entities and registrations.
 */
@Module({})
export class AppModule {
  static forRoot(options: AppConfigOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(options),
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions({ url: config.databaseUrl, logging: config.databaseLogging }),
            migrationsRun: config.migrationsRun,
            autoLoadEntities: true,
          }),
        }),
        TermsModule,
        PostsModule,
        HealthModule,
        DiscoveryModule,
      ],
    };
  }
}
