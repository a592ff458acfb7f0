import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AppConfig } from './app-config';
import { validateEnvironment } from './env.schema';

export interface AppConfigOptions {
  /** Values that win over the process environment; tests use it to give each suite its own database. */
  overrides?: Record<string, string>;
  /** Skip reading `.env` (tests do). */
  ignoreEnvFile?: boolean;
}

@Global()
@Module({})
export class AppConfigModule {
  static forRoot(options: AppConfigOptions = {}): DynamicModule {
    return {
      module: AppConfigModule,
      imports: [
        ConfigModule.forRoot({
          ignoreEnvFile: options.ignoreEnvFile ?? false,
          validate: (raw) => ({ ...validateEnvironment({ ...raw, ...(options.overrides ?? {}) }) }),
        }),
      ],
      providers: [AppConfig],
      exports: [AppConfig],
    };
  }
}
