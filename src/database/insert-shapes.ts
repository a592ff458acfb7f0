import { isDeepStrictEqual } from 'node:util';
import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { DriverUtils } from 'typeorm/driver/DriverUtils';
import type { InsertQueryBuilder } from 'typeorm';

export type InsertRow<T extends ObjectLiteral> = QueryDeepPartialEntity<T>;

// Past this many shapes (row counts times which values are missing), start again rather than grow.
const MAX_SHAPES = 2_000;

/** What TypeORM's insert builder would bind for each value, and the key of the SQL it would write. */
interface Prepared {
  key: string;
  values: unknown[];
}

/** The builder's own column choice; an internal method, checked by comparing its parameters (below). */
interface InsertedColumnsOf {
  getInsertedColumns(): ColumnMetadata[];
}

/**
 * INSERT statements whose SQL TypeORM's query builder writes once per shape (table, number of rows,
 * which values are missing and so become `DEFAULT`), then reused with each call's values, converted as the
 * builder converts them (`preparePersistentValue`: transformers, booleans, dates). A write inserts into
 * nine tables; building each INSERT (escaping names, resolving properties, numbering parameters) took
 * more of the service's time than MySQL took to run it.
 *
 * Checked rather than trusted: the first call of a shape compares the values it would bind with the
 * builder's own; a shape where they differ is built by the builder every time (values the driver writes
 * into the SQL text, as TypeORM does with numbers on SQLite; discriminators; generated UUIDs). A value
 * that is an SQL expression (a function) is never shaped.
 */
export class InsertShapes {
  /** SQL by shape key; null for a shape the builder must build every time. */
  private readonly shapes = new Map<string, string | null>();

  /** The SQL and parameters of inserting `rows` (all with the same properties) into `target`. */
  statement<T extends ObjectLiteral>(
    manager: EntityManager,
    target: EntityTarget<T>,
    rows: readonly InsertRow<T>[],
    columns?: readonly string[],
  ): [string, unknown[]] {
    const metadata = manager.connection.hasMetadata(target) ? manager.connection.getMetadata(target) : null;
    const prepared = metadata
      ? this.prepareEntityRows(manager, metadata, rows, columns)
      : prepareRawRows(target, rows, columns);
    // SQLite binds a shape's values as `boundOnSqlite` binds the builder's.
    const sqlite = DriverUtils.isSQLiteFamily(manager.connection.driver);
    const values = prepared && sqlite ? asSqliteValues(prepared.values) : prepared?.values;
    const sql = prepared ? this.shapes.get(prepared.key) : null;
    if (values && sql) return [sql, values];
    const builder = manager
      .createQueryBuilder()
      .insert()
      .into(target, columns as string[] | undefined)
      .values(rows as InsertRow<T>[])
      .updateEntity(false);
    const [built, parameters] = sqlite ? boundOnSqlite(manager, builder) : builder.getQueryAndParameters();
    if (prepared && values && sql === undefined) {
      // The shaped values are each entity column's in order; that is the builder's only when it inserts them all.
      const sameColumns = !metadata || sameList(builder as unknown as InsertedColumnsOf, metadata.columns);
      if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
      this.shapes.set(prepared.key, sameColumns && isDeepStrictEqual(values, parameters) ? built : null);
    }
    return [built, parameters];
  }

  /**
   * The key says which values are missing after conversion: those are written as `DEFAULT` (MySQL) or the
   * column's default (SQLite), not bound. A value that is an SQL expression (a function) is not shaped.
   */
  private prepareEntityRows<T extends ObjectLiteral>(
    manager: EntityManager,
    metadata: EntityMetadata,
    rows: readonly InsertRow<T>[],
    columns: readonly string[] | undefined,
  ): Prepared | null {
    const driver = manager.connection.driver;
    let key = `e|${metadata.tableName}|${columns?.join(',') ?? ''}|${rows.length}|`;
    const values: unknown[] = [];
    let first: string | null = null;
    for (const [index, row] of rows.entries()) {
      let pattern = '';
      for (const column of metadata.columns) {
        const raw: unknown = column.getEntityValue(row);
        if (typeof raw === 'function') return null;
        const value: unknown = driver.preparePersistentValue(raw, column);
        pattern += value === undefined ? '_' : 'v';
        if (value !== undefined) values.push(value);
      }
      key += patternKey(index, pattern, (first ??= pattern));
    }
    return { key, values };
  }
}

/**
 * A row's part of a shape key: the first row's pattern, then only the rows whose pattern differs (a
 * multi-row insert of hundreds of alike rows keeps a short key).
 */
function patternKey(index: number, pattern: string, first: string): string {
  if (index === 0) return pattern;
  return pattern === first ? '' : `|${index}:${pattern}`;
}

function sameList(builder: InsertedColumnsOf, columns: readonly ColumnMetadata[]): boolean {
  if (typeof builder.getInsertedColumns !== 'function') return false;
  const inserted = builder.getInsertedColumns();
  return inserted.length === columns.length && inserted.every((c, i) => c === columns[i]);
}

/** A table without an entity: the builder binds each row's own values, in its property order. */
function prepareRawRows<T extends ObjectLiteral>(
  target: EntityTarget<T>,
  rows: readonly InsertRow<T>[],
  columns: readonly string[] | undefined,
): Prepared | null {
  if (typeof target !== 'string') return null;
  let key = `t|${target}|${columns?.join(',') ?? ''}|${rows.length}|`;
  const values: unknown[] = [];
  let first: string | null = null;
  for (const [index, row] of rows.entries()) {
    let pattern = '';
    for (const [name, value] of Object.entries(row as ObjectLiteral)) {
      if (typeof value === 'function') return null;
      pattern += `${name}${value === undefined ? '_' : ','}`;
      if (value !== undefined) values.push(value);
    }
    key += patternKey(index, pattern, (first ??= pattern));
  }
  return { key, values };
}

/** A number TypeORM's SQLite driver would write into the statement's text, carried through its escaping. */
class BoundNumber {
  constructor(readonly value: number) {}
}

/**
 * An integer bound as SQLite's INTEGER (a BigInt), as the literal TypeORM writes is read: a JavaScript number
 * would be bound as REAL, which a TEXT column stores as `5.0`. Other numbers are REAL either way.
 */
const asSqliteValue = (value: unknown): unknown =>
  typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
const asSqliteValues = (values: unknown[]): unknown[] => values.map(asSqliteValue);

/**
 * The builder's statement on SQLite with every value bound. TypeORM's SQLite driver writes numbers into the
 * SQL text (`VALUES (?, 5, 0)`), so each row count and each set of numbers made a statement of its own, which
 * the shapes above could never reuse; here its own escaping runs with the numbers carried past it and bound
 * as the values it would have written.
 */
function boundOnSqlite<T extends ObjectLiteral>(
  manager: EntityManager,
  builder: InsertQueryBuilder<T>,
): [string, unknown[]] {
  // As `getQueryAndParameters`: the query first, which creates the parameters it names.
  const query = builder.getQuery();
  const carried = Object.fromEntries(
    Object.entries(builder.getParameters()).map(([name, value]) => [
      name,
      typeof value === 'number' ? new BoundNumber(value) : (value as unknown),
    ]),
  );
  const [sql, values] = manager.connection.driver.escapeQueryWithParameters(query, carried);
  return [sql, (values as unknown[]).map((v) => asSqliteValue(v instanceof BoundNumber ? v.value : v))];
}
