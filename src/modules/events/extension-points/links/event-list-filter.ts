import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../../../common/http/request-context';
import type { SqlCondition } from '../../../../core/posts/post-visibility';

/**
 * A list filter a module adds to `GET /events`, its feeds and the TEC alias (the geolocation module's
 * `geoloc*`, a tickets module's `ticketed`): given the validated query and the caller, a condition on the
 * event posts (aliased `p`), or nothing when its parameters are absent. The condition's own 400s (a pair
 * given half) are thrown from here. Its parameters are declared with `declareEventListParam` (a contract
 * parameter such as `ticketed` is declared already).
 *
 * Fast paths: the day counts, the word index and the listing-index skip know nothing of a module's
 * condition, so an archive with one is always served by the exact query (`moduleConditions` is classified
 * `exact` in archive-filter-fields.ts). A filter never has to say so, and cannot be served wrongly.
 */
export interface EventListFilter {
  /** The parameters it takes (each declared on the list's DTO, and so echoed in `rest_url`). */
  params: readonly string[];
  condition(
    query: Record<string, unknown>,
    ctx: RequestContext,
  ): SqlCondition | undefined | Promise<SqlCondition | undefined>;
}

/** The list filters modules added, applied in registration order. */
@Injectable()
export class EventListFilterRegistry {
  private readonly filters: EventListFilter[] = [];

  register(filter: EventListFilter): void {
    this.filters.push(filter);
  }

  /** Whether a module's filter takes `param` (a contract parameter is refused while none does). */
  takes(param: string): boolean {
    return this.filters.some((f) => f.params.includes(param));
  }

  async conditions(query: object, ctx: RequestContext): Promise<SqlCondition[]> {
    const conditions: SqlCondition[] = [];
    for (const filter of this.filters) {
      const condition = await filter.condition(query as Record<string, unknown>, ctx);
      if (condition !== undefined) conditions.push(condition);
    }
    return conditions;
  }
}
