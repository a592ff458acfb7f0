import type { EventArchiveFilter } from './event-archive-filter';

/**
 * How one field of an archive filter bears on the count tables (the listing's day counts, the word index and
 * the listing-index skip), which know only a plain date window of the public's published events:
 * - `neutral`: does not narrow the archive (the time it is read at);
 * - `route`: the fast paths check it themselves (the window, the scope, one term, one search word, the
 *   caller's content rule), each against what it can serve;
 * - `exact`: the count tables know nothing of it: an archive that sets it is served by the exact query.
 */
export type FieldUse = 'neutral' | 'route' | 'exact';

/**
 * Every field of `EventArchiveFilter`, classified. A mapped type over the filter's keys: a field added to the
 * filter fails `tsc` here until it says how the fast paths may treat it, and one classified `exact` sends
 * every archive that sets it to the exact query, so a new filter can never be served by counts that ignore it.
 */
export const ARCHIVE_FILTER_FIELDS: { readonly [K in keyof Required<EventArchiveFilter>]: FieldUse } = {
  scope: 'route',
  nowUtc: 'neutral',
  window: 'route',
  tokens: 'route',
  termFilters: 'route',
  contentVisible: 'route',
  linkFilters: 'exact',
  featured: 'exact',
  include: 'exact',
  parentId: 'exact',
  seriesId: 'exact',
  moduleConditions: 'exact',
};

/** Whether a filter sets `field` (an empty list sets nothing). */
export function isFieldSet(filter: EventArchiveFilter, field: keyof EventArchiveFilter): boolean {
  const value: unknown = filter[field];
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/** The fields a filter sets that only the exact query serves. */
export function exactOnlyFieldsSet(filter: EventArchiveFilter): (keyof EventArchiveFilter)[] {
  return (Object.keys(ARCHIVE_FILTER_FIELDS) as (keyof EventArchiveFilter)[]).filter(
    (field) => ARCHIVE_FILTER_FIELDS[field] === 'exact' && isFieldSet(filter, field),
  );
}
