import { Injectable } from '@nestjs/common';
import type { SqlCondition } from '../../../core/posts/post-visibility';

/**
 * A list filter a module adds to `GET /events` (the geolocation module's `geoloc*`): given the validated
 * query, a condition on the event posts (aliased `p`), or nothing when its parameters are absent. The
 * condition's own 400s (a pair given half) are thrown from here.
 */
export interface EventListFilter {
  /** The parameters it adds to the list (echoed in `rest_url`). */
  params: readonly string[];
  condition(query: Record<string, unknown>): SqlCondition | undefined;
}

/** The list filters modules added, applied in registration order. */
@Injectable()
export class EventListFilterRegistry {
  private readonly filters: EventListFilter[] = [];

  register(filter: EventListFilter): void {
    this.filters.push(filter);
  }

  /** The values of the added parameters, for `rest_url`. */
  echo(query: object): Record<string, unknown> {
    const values = query as Record<string, unknown>;
    return Object.fromEntries(this.filters.flatMap((f) => f.params.map((name) => [name, values[name]])));
  }

  conditions(query: object): SqlCondition[] {
    return this.filters
      .map((f) => f.condition(query as Record<string, unknown>))
      .filter((c): c is SqlCondition => c !== undefined);
  }
}
