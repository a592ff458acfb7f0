import { Injectable } from '@nestjs/common';
import { DataSource, type EntityTarget, type ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

type Hydrate = (value: unknown, column: ColumnMetadata) => unknown;

interface EntityColumns {
  select: string[];
  columns: { key: string; column: ColumnMetadata }[];
  /** Builds the entity from a row; null when its first primary column is missing (an outer join found none). */
  read: (row: Record<string, unknown>) => ObjectLiteral | null;
}

/**
 * A reader with the entity's property names and the row's keys as literals, as mysql2 compiles its own row
 * parsers: an object built by a loop over names takes a dictionary store per property, about 30 times the
 * cost, and a page of events reads some fifty entities. The names come from entity metadata, not from input,
 * and are written as JSON string literals.
 */
function compileReader(columns: EntityColumns['columns'], hydrate: Hydrate): EntityColumns['read'] {
  // In an object literal this name sets the prototype instead of a property.
  if (columns.some(({ column }) => column.propertyName === '__proto__')) throw new Error('a column named __proto__');
  const first = JSON.stringify(columns[0].key);
  const members = columns.map(
    ({ key, column }, i) =>
      `${JSON.stringify(column.propertyName)}: hydrate(row[${JSON.stringify(key)}], columns[${i}])`,
  );
  const body = `return (row) => row[${first}] === null || row[${first}] === undefined ? null : { ${members.join(', ')} };`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above: a compiled reader, from metadata only
  const make = new Function('hydrate', 'columns', body) as (
    hydrate: Hydrate,
    columns: ColumnMetadata[],
  ) => EntityColumns['read'];
  return make(
    hydrate,
    columns.map(({ column }) => column),
  );
}

/**
 * Reads whole entities from raw rows, for hot read paths that join several tables in one query: the
 * select list is built once per entity and alias, and each value goes through the driver's own
 * conversion (booleans, column transformers) without TypeORM's generic result transformer, which
 * costs more than the query on a page of events.
 */
@Injectable()
export class RawRows {
  private readonly cache = new Map<EntityTarget<ObjectLiteral>, Map<string, EntityColumns>>();

  constructor(private readonly dataSource: DataSource) {}

  /** `alias.column AS alias__column` for every column of `entity`. */
  select(entity: EntityTarget<ObjectLiteral>, alias: string): string[] {
    return this.columnsOf(entity, alias).select;
  }

  /**
   * `NULL AS alias__column` for every column of `entity`, in the order of {@link select}: the columns a part
   * of a UNION selects for an entity that only another part reads (the parts' columns must line up).
   */
  selectNulls(entity: EntityTarget<ObjectLiteral>, alias: string): string[] {
    const escape = (name: string) => this.dataSource.driver.escape(name);
    return this.columnsOf(entity, alias).columns.map(({ key }) => `NULL AS ${escape(key)}`);
  }

  /** The entity `alias` holds in `row`, or null when an outer join found none (its first primary column is null). */
  read<T extends ObjectLiteral>(entity: EntityTarget<T>, alias: string, row: Record<string, unknown>): T | null {
    return this.columnsOf(entity, alias).read(row) as T | null;
  }

  private columnsOf(entity: EntityTarget<ObjectLiteral>, alias: string): EntityColumns {
    let byAlias = this.cache.get(entity);
    if (!byAlias) this.cache.set(entity, (byAlias = new Map<string, EntityColumns>()));
    let found = byAlias.get(alias);
    if (!found) {
      const metadata = this.dataSource.getMetadata(entity);
      const driver = this.dataSource.driver;
      const escape = (name: string) => driver.escape(name);
      // Primary columns first: `read` tells a missing outer-joined row by the first one.
      const ordered = [...metadata.primaryColumns, ...metadata.columns.filter((c) => !c.isPrimary)];
      const columns = ordered.map((column) => ({ key: `${alias}__${column.databaseName}`, column }));
      found = {
        columns,
        select: columns.map(({ key, column }) => `${escape(alias)}.${escape(column.databaseName)} AS ${escape(key)}`),
        // Each value through the driver's own conversion (booleans, dates, column transformers).
        read: compileReader(columns, (value, column) => driver.prepareHydratedValue(value, column)),
      };
      byAlias.set(alias, found);
    }
    return found;
  }
}
