import { documentedProperties } from '../validation/documented-properties';
import type { QueryValue } from './pagination';

/** Parameters the list envelope writes itself (`buildListResponse`). */
const PAGING = new Set(['page', 'per_page']);

/**
 * A list's query as `rest_url`, `next_rest_url` and `previous_rest_url` repeat it: every parameter its DTO
 * documents (its class's and those modules declared on it), as given, but paging; `overrides` replace given
 * values (a date window's defaults, filled in). Derived from the declaration, so a parameter a page filters by
 * is never dropped from the link to the next page.
 */
export function queryEchoOf(
  dto: { prototype: object },
  query: object,
  overrides: Record<string, QueryValue> = {},
): Record<string, QueryValue> {
  const given = query as Record<string, QueryValue>;
  const echo: Record<string, QueryValue> = {};
  for (const name of documentedProperties(dto)) {
    if (!PAGING.has(name)) echo[name] = name in overrides ? overrides[name] : given[name];
  }
  return echo;
}
