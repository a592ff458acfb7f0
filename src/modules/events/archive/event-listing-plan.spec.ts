import { describe, expect, it } from '@jest/globals';
import { contentVisibleCondition } from '../../../core/posts/post-visibility';
import type { ShapedQueries } from '../../../database/shaped-queries';
import { dayCountRoute, EventListingPlan, seekInDays } from './event-listing-plan';
import { nextDayStart } from './event-window';
import type { EventArchiveFilter } from './event-archive-filter';

const plain: EventArchiveFilter = {
  scope: { statuses: ['publish'] },
  nowUtc: '2030-03-01 12:00:00',
  window: { startFrom: '2030-02-28 23:00:00', endUntil: '2032-03-01 22:59:59', effective: {} },
  tokens: [],
  termFilters: [],
  linkFilters: [],
  contentVisible: contentVisibleCondition(null, 'p'),
  moduleConditions: [],
};
const wholeDays: EventArchiveFilter = {
  ...plain,
  window: { startFrom: '2030-03-01 00:00:00', endUntil: '2031-02-28 23:59:59', effective: {} },
};

describe('per-day listing counts: which archives they serve', () => {
  it('steps to the next UTC day across month, year and leap-day ends', () => {
    expect(nextDayStart('2030-03-14')).toBe('2030-03-15 00:00:00');
    expect(nextDayStart('2030-12-31')).toBe('2031-01-01 00:00:00');
    expect(nextDayStart('2032-02-28')).toBe('2032-02-29 00:00:00');
    expect(nextDayStart('2031-02-28')).toBe('2031-03-01 00:00:00');
  });

  it('serves the public scope with a plain two-sided window, knowing whether it is whole UTC days', () => {
    expect(dayCountRoute(plain)).toEqual({
      window: { startFrom: '2030-02-28 23:00:00', endUntil: '2032-03-01 22:59:59' },
      aligned: false,
    });
    expect(dayCountRoute(wholeDays)?.aligned).toBe(true);
    expect(dayCountRoute({ ...plain, scope: { statuses: ['publish', 'draft'] } })).toBeUndefined();
    expect(dayCountRoute({ ...plain, scope: { statuses: ['publish'], ownerId: 3 } })).toBeUndefined();
    expect(dayCountRoute({ ...plain, window: undefined })).toBeUndefined();
    expect(dayCountRoute({ ...plain, window: { startFrom: '2030-01-01 00:00:00', effective: {} } })).toBeUndefined();
    expect(
      dayCountRoute({ ...plain, window: { ...plain.window!, startsBefore: '2031-01-01 00:00:00' } }),
    ).toBeUndefined();
  });

  it('serves one term (a category, a tag, any taxonomy on events) for callers with the public content rule', () => {
    expect(dayCountRoute({ ...wholeDays, termFilters: [[7]] })).toMatchObject({ termId: 7, aligned: true });
    expect(dayCountRoute({ ...wholeDays, termFilters: [[9]] })).toMatchObject({ termId: 9 });
    expect(dayCountRoute({ ...plain, termFilters: [[7]] })).toMatchObject({ termId: 7, aligned: false });
    expect(dayCountRoute({ ...wholeDays, termFilters: [[7, 8]] })).toBeUndefined();
    expect(dayCountRoute({ ...wholeDays, termFilters: [[7], [9]] })).toBeUndefined();
    // An editor's content rule lets password-protected events match; the counts leave them out.
    expect(dayCountRoute({ ...wholeDays, termFilters: [[7]], contentVisible: { sql: '1 = 1', params: {} } })).toBe(
      undefined,
    );
  });

  it('leaves every other filter to a count of rows', () => {
    expect(dayCountRoute({ ...plain, tokens: ['jazz'] })).toBeUndefined();
    expect(
      dayCountRoute({ ...plain, linkFilters: [{ table: 'event_venues', column: 'venue_id', ids: [1] }] }),
    ).toBeUndefined();
    expect(dayCountRoute({ ...plain, moduleConditions: [{ sql: '1 = 1', params: {} }] })).toBeUndefined();
    expect(dayCountRoute({ ...plain, featured: true })).toBeUndefined();
    expect(dayCountRoute({ ...plain, include: [1] })).toBeUndefined();
    expect(dayCountRoute({ ...plain, parentId: 4 })).toBeUndefined();
  });
});

describe('seeking a page by day counts', () => {
  const days = [
    { day: '2030-03-01', listed: 4 },
    { day: '2030-03-02', listed: 1 },
    { day: '2030-03-05', listed: 6 },
    { day: '2030-03-09', listed: 3 },
  ];

  it('starts at the day holding the page’s first row and stops after the day holding its last', () => {
    expect(seekInDays(days, { page: 1, perPage: 3, offset: 0 })).toEqual({
      startFrom: '2030-03-01 00:00:00',
      startBefore: '2030-03-02 00:00:00',
      offset: 0,
      listed: 4,
    });
    expect(seekInDays(days, { page: 2, perPage: 3, offset: 3 })).toEqual({
      startFrom: '2030-03-01 00:00:00',
      startBefore: '2030-03-06 00:00:00',
      offset: 3,
      listed: 11,
    });
    expect(seekInDays(days, { page: 3, perPage: 2, offset: 4 })).toEqual({
      startFrom: '2030-03-02 00:00:00',
      startBefore: '2030-03-06 00:00:00',
      offset: 0,
      listed: 7,
    });
  });

  it('runs to the window’s end for the last page, and finds nothing past it', () => {
    expect(seekInDays(days, { page: 3, perPage: 5, offset: 10 })).toEqual({
      startFrom: '2030-03-05 00:00:00',
      offset: 5,
      listed: 9,
    });
    expect(seekInDays(days, { page: 2, perPage: 14, offset: 14 })).toBeUndefined();
    expect(seekInDays([], { page: 1, perPage: 10, offset: 0 })).toBeUndefined();
  });
});

describe('planning a page from the day counts', () => {
  const perDay = [
    { day: '2030-03-01', listed: 4 },
    { day: '2030-03-03', listed: 5 },
    { day: '2030-03-04', listed: 6 },
  ];
  /** A database that answers the summed shapes with one row and the per-day ones with a row per day. */
  const planner = () => {
    const shapes: string[] = [];
    const shaped = {
      rawMany: (name: string) => {
        shapes.push(name);
        return Promise.resolve(name.endsWith(':sum') ? [{ day: '2030-03-01', listed: '15' }] : perDay);
      },
    } as unknown as ShapedQueries;
    return { plan: new EventListingPlan(shaped), shapes };
  };
  const window = { startFrom: '2030-03-01 00:00:00', endUntil: '2030-12-31 23:59:59' };

  it('gives the first page of a plain archive its total from sums, with no seek', async () => {
    const { plan, shapes } = planner();
    expect(await plan.plan({ window, aligned: true }, plain.nowUtc, { page: 1, perPage: 5, offset: 0 })).toEqual({
      total: 15,
    });
    expect(shapes).toEqual(['dayTotals:days:all:sum']);
  });

  it('seeks deeper pages, and every page of a term archive, from a row per day', async () => {
    const { plan, shapes } = planner();
    expect(await plan.plan({ window, aligned: true }, plain.nowUtc, { page: 2, perPage: 5, offset: 5 })).toEqual({
      total: 15,
      seek: { startFrom: '2030-03-03 00:00:00', startBefore: '2030-03-05 00:00:00', offset: 1, listed: 11 },
    });
    expect(
      await plan.plan({ window, aligned: true, termId: 7 }, plain.nowUtc, { page: 1, perPage: 5, offset: 0 }),
    ).toEqual({
      total: 15,
      seek: { startFrom: '2030-03-01 00:00:00', startBefore: '2030-03-04 00:00:00', offset: 0, listed: 9 },
    });
    expect(shapes).toEqual(['dayTotals:days:all:per-day', 'dayTotals:days:term:per-day']);
  });
});
