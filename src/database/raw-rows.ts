import { Injectable } from '@nestjs/common';
import { DataSource, type EntityTarget, type ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

interface EntityColumns {
  select: string[];
  columns: { key: string; column: ColumnMetadata }[];
}

/**
 * Reads whole entities from raw rows, for hot read paths that join several tables in one query: the
 * select list is built once per entity and alias, and each value goes through the driver's own
 * conversion (booleans, column transformers) without TypeORM's generic result transformer, which
 * costs more than the query on a page of events.
 */
@Injectable()
export class RawRows {
  private readonly cache = new Map<string, EntityColumns>();

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
    const { columns } = this.columnsOf(entity, alias);
    const driver = this.dataSource.driver;
    if (row[columns[0].key] === null || row[columns[0].key] === undefined) return null;
    const value: Record<string, unknown> = {};
    for (const { key, column } of columns) value[column.propertyName] = driver.prepareHydratedValue(row[key], column);
    return value as T;
  }

  private columnsOf(entity: EntityTarget<ObjectLiteral>, alias: string): EntityColumns {
    const metadata = this.dataSource.getMetadata(entity);
    const cacheKey = `${metadata.name}\u0000${alias}`;
    let found = this.cache.get(cacheKey);
    if (!found) {
      const escape = (name: string) => this.dataSource.driver.escape(name);
      // Primary columns first: `read` tells a missing outer-joined row by the first one.
      const ordered = [...metadata.primaryColumns, ...metadata.columns.filter((c) => !c.isPrimary)];
      const columns = ordered.map((column) => ({ key: `${alias}__${column.databaseName}`, column }));
      found = {
        columns,
        select: columns.map(({ key, column }) => `${escape(alias)}.${escape(column.databaseName)} AS ${escape(key)}`),
      };
      this.cache.set(cacheKey, found);
    }
    return found;
  }
}
