import type { DataSource, EntityManager } from 'typeorm';
import { buildIdentity } from '../operations/build-identity';
import { formatSqlDateTime } from './datetime.transformer';

/**
 * Data a module derives from content with its own code (the word index: words found in JS), declared so the
 * service can fill it when the code that derives it changed, or when a migration made its tables empty.
 * Migrations create such tables and never fill them: a migration is frozen when it lands, the module's code
 * is not, and rows derived by yesterday's code would disagree with today's writes.
 */
export interface DerivedStore {
  /** Stable name, the key of its row in `derived_stores`. */
  name: string;
  /** Emptied before a fill, in this order (children first). */
  tables: readonly string[];
  /** Derives every row from the content there is, in the fill's transaction. */
  fill(manager: EntityManager): Promise<void>;
}

/**
 * The version a store's rows are recorded with: the identity of the whole build (`buildIdentity`), not of
 * hand-picked functions, so a change of any helper the deriving code calls refills the store at the next start.
 */
export function storeVersion(): string {
  return buildIdentity();
}

const STORES_KEY = Symbol('cal:module-derived-stores');

/** Injection token: the application's derived stores, for the start-up's fill (`SchemaMigrations`). */
export const DERIVED_STORES = Symbol('cal:derived-stores');

/** Declares the derived stores a module keeps, beside its migrations (`@WithMigrations`). */
export function WithDerivedStores(...stores: DerivedStore[]): ClassDecorator {
  return (target) => Reflect.defineMetadata(STORES_KEY, stores, target);
}

/** The derived stores the given modules declared, in module order. */
export function derivedStoresOf(modules: readonly object[]): DerivedStore[] {
  const stores = modules.flatMap((m) => (Reflect.getMetadata(STORES_KEY, m) as DerivedStore[] | undefined) ?? []);
  const names = stores.map((s) => s.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`derived store ${twice} is declared twice`);
  return stores;
}

/** The stores whose recorded version is missing or not theirs (one read). */
export async function staleStores(dataSource: DataSource, stores: readonly DerivedStore[]): Promise<DerivedStore[]> {
  if (stores.length === 0) return [];
  const rows = await dataSource.query<{ name: string; version: string }[]>('SELECT name, version FROM derived_stores');
  const recorded = new Map(rows.map((r) => [r.name, r.version]));
  const version = storeVersion();
  return stores.filter((store) => recorded.get(store.name) !== version);
}

/**
 * Fills each store that is stale (every one with `force`), each in a transaction of its own that reads the
 * recorded version again first: of two processes that both found a store stale, the second finds it
 * current (on MySQL, callers hold the migrations lock around this: `MigrationCommands`). Returns the names filled.
 */
export async function fillDerivedStores(
  dataSource: DataSource,
  stores: readonly DerivedStore[],
  force: boolean,
): Promise<string[]> {
  const filled: string[] = [];
  for (const store of stores) {
    const done = await dataSource.transaction(async (manager) => {
      if (!force && (await recordedVersion(manager, store.name)) === storeVersion()) return false;
      for (const table of store.tables) await manager.query(`DELETE FROM ${table}`);
      await store.fill(manager);
      await recordFilled(manager, { name: store.name, version: storeVersion() });
      return true;
    });
    if (done) filled.push(store.name);
  }
  return filled;
}

/** The version recorded for a row of `derived_stores` (a store, or the events' zone rules); undefined for none. */
export async function recordedVersion(manager: EntityManager | DataSource, name: string): Promise<string | undefined> {
  const [row] = await manager.query<{ version: string }[]>('SELECT version FROM derived_stores WHERE name = ?', [name]);
  return row?.version;
}

/**
 * Records that `store` holds what its current code derives (a fill's last step; the bench's seed after a fill of
 * its own; the events' zone rules after a rebase).
 */
export async function recordFilled(
  manager: EntityManager | DataSource,
  store: { name: string; version: string },
): Promise<void> {
  await manager.query('DELETE FROM derived_stores WHERE name = ?', [store.name]);
  await manager.query('INSERT INTO derived_stores (name, version, filled_utc) VALUES (?, ?, ?)', [
    store.name,
    store.version,
    formatSqlDateTime(new Date()),
  ]);
}
