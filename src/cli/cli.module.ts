import { DynamicModule, Module, type Type } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DatesModule } from '../common/dates/dates.module';
import { BackgroundModule } from '../common/background/background.module';
import { RedisModule } from '../common/redis/redis.module';
import { AppConfigModule, type AppConfigOptions } from '../config/app-config.module';
import { DatabaseModule } from '../database/database.module';
import { derivedStoresOf } from '../database/derived-stores';
import { migrationsOf } from '../database/module-migrations';
import { CALENDAR_MODULES } from '../app.module';

/** What the CLI needs: configuration, the database (with its migrations) and user management. */
@Module({})
export class CliModule {
  /** @param options.modules the resource modules whose migrations the schema has (`applicationModules`). */
  static forRoot(options: AppConfigOptions & { modules?: readonly Type[] } = {}): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.forRoot(options),
        DatesModule,
        RedisModule,
        BackgroundModule,
        DatabaseModule.forRoot(
          migrationsOf(options.modules ?? CALENDAR_MODULES),
          derivedStoresOf(options.modules ?? CALENDAR_MODULES),
        ),
        AuthModule,
      ],
    };
  }
}
