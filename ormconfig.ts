import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { validateEnvironment } from './src/config/env.schema';
import { buildDataSourceOptions } from './src/database/data-source-options';

/** Data source for the TypeORM CLI (`npm run migration:run`), built from the same options as the app. */
const env = validateEnvironment(process.env);
export default new DataSource(buildDataSourceOptions({ url: env.DATABASE_URL, logging: env.DB_LOGGING }));
