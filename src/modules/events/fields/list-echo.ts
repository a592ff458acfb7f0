import type { QueryValue } from '../../../common/pagination/pagination';
import { documentedProperties } from '../../../common/validation/documented-properties';
import { ListEventsQueryDto } from '../dto/list-events-query.dto';

/** Parameters the list envelope writes itself (`buildListResponse`). */
const PAGING = new Set(['page', 'per_page']);

/**
 * The list's query as `rest_url`, `next_rest_url` and `previous_rest_url` repeat it: every parameter
 * `GET /events` declares (its class's, the links' and the modules'), as the caller gave it, and the date window
 * as it was applied (`effective`: its defaults filled in). Derived from the declaration, so a parameter a page
 * filters by is never dropped from the link to the next page.
 */
export function listEchoOf(
  query: ListEventsQueryDto,
  effective: { start_date?: string; end_date?: string } | undefined,
): Record<string, QueryValue> {
  const given = query as unknown as Record<string, QueryValue>;
  const echo: Record<string, QueryValue> = {};
  for (const name of documentedProperties(ListEventsQueryDto)) {
    if (PAGING.has(name)) continue;
    echo[name] = name === 'start_date' || name === 'end_date' ? effective?.[name] : given[name];
  }
  return echo;
}
