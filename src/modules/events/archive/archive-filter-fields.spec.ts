import { describe, expect, it } from '@jest/globals';
import { contentVisibleCondition } from '../../../core/posts/post-visibility';
import { ARCHIVE_FILTER_FIELDS, isFieldSet } from './archive-filter-fields';
import { dayCountRoute, plainPublicWindow } from './event-listing-plan';
import { searchWordRoute } from './event-search-plan';
import type { EventArchiveFilter } from './event-archive-filter';

const window = { startFrom: '2030-03-01 00:00:00', endUntil: '2030-03-31 23:59:59', effective: {} };

/** A public archive of a plain window: what the count tables serve. */
const plain: EventArchiveFilter = {
  scope: { statuses: ['publish'] },
  nowUtc: '2030-03-01 12:00:00',
  window,
  tokens: [],
  termFilters: [],
  linkFilters: [],
  contentVisible: contentVisibleCondition(null, 'p'),
  moduleConditions: [],
};

/** A value for every field (`Required`: a field added to the filter must be given one here too). */
const setValues: Required<EventArchiveFilter> = {
  ...plain,
  window,
  tokens: ['jazz'],
  termFilters: [[11], [12]],
  linkFilters: [{ table: 'event_venues', column: 'venue_id', ids: [14] }],
  featured: false,
  include: [16],
  parentId: 18,
  seriesId: 19,
  moduleConditions: [{ sql: 'd.cost > 0', params: {} }],
};

describe('the archive filter fields the fast paths may serve', () => {
  it('sends an archive that sets any field the count tables do not know to the exact query', () => {
    expect(plainPublicWindow(plain)).toBeDefined();
    const exact = (Object.keys(ARCHIVE_FILTER_FIELDS) as (keyof EventArchiveFilter)[]).filter(
      (field) => ARCHIVE_FILTER_FIELDS[field] === 'exact',
    );
    expect(exact.length).toBeGreaterThan(0);
    for (const field of exact) {
      const filter = { ...plain, [field]: setValues[field] };
      expect([field, isFieldSet(filter, field)]).toEqual([field, true]);
      expect([field, plainPublicWindow(filter)]).toEqual([field, undefined]);
      expect([field, dayCountRoute(filter)]).toEqual([field, undefined]);
      expect([field, searchWordRoute({ ...filter, tokens: ['jazz'] })]).toEqual([field, undefined]);
    }
  });

  it('lets the routes judge the fields they check themselves', () => {
    expect(dayCountRoute({ ...plain, termFilters: [[11]] })?.termId).toBe(11);
    expect(dayCountRoute({ ...plain, termFilters: [[11, 12]] })).toBeUndefined();
    expect(searchWordRoute({ ...plain, tokens: ['jazz'] })).toBeDefined();
    expect(plainPublicWindow({ ...plain, scope: { statuses: ['publish', 'draft'] } })).toBeUndefined();
  });
});
