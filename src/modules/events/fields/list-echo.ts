import type { QueryValue } from '../../../common/pagination/pagination';
import { queryEchoOf } from '../../../common/pagination/query-echo';
import { ListEventsQueryDto } from '../rest/dto/list-events-query.dto';

/**
 * `GET /events`' query as its links repeat it: every parameter the list declares (its class's, the links' and
 * the modules'), as the caller gave it, and the date window as it was applied (`effective`: defaults filled in).
 */
export function listEchoOf(
  query: ListEventsQueryDto,
  effective: { start_date?: string; end_date?: string } | undefined,
): Record<string, QueryValue> {
  return queryEchoOf(ListEventsQueryDto, query, {
    start_date: effective?.start_date,
    end_date: effective?.end_date,
  });
}
