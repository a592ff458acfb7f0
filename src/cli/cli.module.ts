import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DatesModule } from '../common/dates/dates.module';
import { AppConfigModule } from '../config/app-config.module';
import { DatabaseModule } from '../database/database.module';

/** What the CLI needs: configuration, the database (with its migrations) and user management. */
@Module({})
export class CliModule {
  static forRoot(): DynamicModule {
    return {
      module: CliModule,
      imports: [AppConfigModule.forRoot(), DatesModule, DatabaseModule.forRoot(), AuthModule],
    };
  }
}
