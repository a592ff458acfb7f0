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

/** Validated settings. Global: every layer reads them (the database, auth, the modules, the CLI). */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(options: AppConfigOptions = {}): DynamicModule {
    return {
      module: AppConfigModule,
      imports: [
        // Not ConfigModule's own `validate`: it writes the validated values, overrides included, back into
        // process.env, where one app's overrides would leak into the next app of the same process.
        ConfigModule.forRoot({
          ignoreEnvFile: options.ignoreEnvFile ?? false,
          validatePredefined: false,
          skipProcessEnv: true,
          load: [() => ({ ...validateEnvironment({ ...process.env, ...(options.overrides ?? {}) }) })],
        }),
      ],
      providers: [AppConfig],
      exports: [AppConfig],
    };
  }
}
