import type { MigrationInterface } from 'typeorm';
import { MIGRATIONS } from './migrations';

export type MigrationClass = new () => MigrationInterface;

const MIGRATIONS_KEY = Symbol('cal:module-migrations');

/**
 * Declares the migrations a resource module brings (its companion and link tables), so registering the
 * module with `AppModule.forRoot({ modules })` is all it takes: the data source runs them with the base's.
 */
export function WithMigrations(...migrations: MigrationClass[]): ClassDecorator {
  return (target) => Reflect.defineMetadata(MIGRATIONS_KEY, migrations, target);
}

/** Everything a data source for these modules must run: the base's migrations, then the modules'. */
export function allMigrations(modules: readonly object[]): MigrationClass[] {
  return [...MIGRATIONS, ...migrationsOf(modules)];
}

/** The migrations the given modules declared, in module order. */
export function migrationsOf(modules: readonly object[]): MigrationClass[] {
  return modules.flatMap((m) => (Reflect.getMetadata(MIGRATIONS_KEY, m) as MigrationClass[] | undefined) ?? []);
}
