import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DatabaseContext } from './database-context';

/** Parameters a shaped query takes: strings and numbers, or lists of them (`IN (:...ids)`). */
export type ShapeParams = Record<string, string | number | readonly (string | number)[]>;

type Slot = { param: string; index?: number } | { constant: unknown };

interface Shape {
  sql: string;
  slots: Slot[];
}

const MARK = '\u0001shape\u0001';
// Each list length is a shape of its own; past this many, start again rather than grow without end.
const MAX_SHAPES = 2_000;

/** Stands each parameter in for a marker that names it, so the built SQL's parameter list can be mapped back. */
function markersOf(params: ShapeParams): ShapeParams {
  const marked: ShapeParams = {};
  for (const [name, value] of Object.entries(params)) {
    marked[name] = Array.isArray(value) ? value.map((_, i) => `${MARK}${name}\u0001${i}`) : `${MARK}${name}`;
  }
  return marked;
}

function slotOf(value: unknown): Slot {
  if (typeof value !== 'string' || !value.startsWith(MARK)) return { constant: value };
  const [param, index] = value.slice(MARK.length).split('\u0001');
  return index === undefined ? { param } : { param, index: Number(index) };
}

function keyOf(name: string, params: ShapeParams): string {
  let key = name;
  for (const [param, value] of Object.entries(params)) if (Array.isArray(value)) key += `|${param}:${value.length}`;
  return key;
}

/** What a shaped query is built as: a query builder, or several joined (`unionAll`). */
export interface BuiltQuery {
  getQueryAndParameters(): [string, unknown[]];
}

/** The parts as one `UNION ALL` (their select lists must line up), for {@link ShapedQueries.rawMany}. */
export function unionAll(parts: BuiltQuery[]): BuiltQuery {
  return {
    getQueryAndParameters: () => {
      const built = parts.map((part) => part.getQueryAndParameters());
      return [built.map(([sql]) => sql).join(' UNION ALL '), built.flatMap(([, params]) => params)];
    },
  };
}

/**
 * Select queries whose SQL is built by TypeORM's query builder once per shape (a name and the length
 * of each list parameter) and then run with new values. On a read that runs a handful of small
 * queries, building the SQL (property names resolved, select lists escaped) cost more than sending it.
 */
@Injectable()
export class ShapedQueries {
  private readonly shapes = new Map<string, Shape>();

  constructor(private readonly db: DatabaseContext) {}

  /** The raw rows of the query `build` makes; `build` must use only `params` for what varies. */
  async rawMany<T>(
    name: string,
    params: ShapeParams,
    build: (manager: EntityManager, params: ShapeParams) => BuiltQuery,
  ): Promise<T[]> {
    const manager = this.db.manager;
    const key = keyOf(name, params);
    let shape = this.shapes.get(key);
    if (!shape) {
      const [sql, values] = build(manager, markersOf(params)).getQueryAndParameters();
      shape = { sql, slots: values.map(slotOf) };
      if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
      this.shapes.set(key, shape);
    }
    const values = shape.slots.map((slot) => {
      if ('constant' in slot) return slot.constant;
      const value = params[slot.param];
      return slot.index === undefined ? value : (value as readonly (string | number)[])[slot.index];
    });
    return manager.query<T[]>(shape.sql, values);
  }
}
