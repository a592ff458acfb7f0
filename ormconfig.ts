import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { validateEnvironment } from './src/config/env.schema';
import { CALENDAR_MODULES } from './src/app.module';
import { buildDataSourceOptions } from './src/database/data-source-options';
import { allMigrations } from './src/database/module-migrations';

/**
 * Data source for people who use the TypeORM CLI, built from the same options and migrations as the app
 * (`npm run migration:*` use the service's own CLI instead, which needs no ts-node).
 */
const env = validateEnvironment(process.env);
export default new DataSource({
  ...buildDataSourceOptions({ url: env.DATABASE_URL, logging: env.DB_LOGGING }),
  migrations: allMigrations(CALENDAR_MODULES),
});
