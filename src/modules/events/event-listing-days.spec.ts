import { describe, expect, it } from '@jest/globals';
import { countsByDay } from './event-listing-days';
import { nextDayStart } from './event-window';
import type { EventArchiveFilter } from './events.repository';

const plain: EventArchiveFilter = {
  scope: { statuses: ['publish'] },
  nowUtc: '2030-03-01 12:00:00',
  window: { startFrom: '2030-02-28 23:00:00', endUntil: '2032-03-01 22:59:59', effective: {} },
  tokens: [],
  linkFilters: [],
  contentVisible: { sql: '1 = 1', params: {} },
  moduleConditions: [],
};

describe('per-day listing counts', () => {
  it('steps to the next UTC day across month, year and leap-day ends', () => {
    expect(nextDayStart('2030-03-14')).toBe('2030-03-15 00:00:00');
    expect(nextDayStart('2030-12-31')).toBe('2031-01-01 00:00:00');
    expect(nextDayStart('2032-02-28')).toBe('2032-02-29 00:00:00');
    expect(nextDayStart('2031-02-28')).toBe('2031-03-01 00:00:00');
  });

  it('serves only the public scope with a plain two-sided window', () => {
    expect(countsByDay(plain)).toBe(true);
    expect(countsByDay({ ...plain, scope: { statuses: ['publish', 'draft'] } })).toBe(false);
    expect(countsByDay({ ...plain, scope: { statuses: ['publish'], ownerId: 3 } })).toBe(false);
    expect(countsByDay({ ...plain, window: undefined })).toBe(false);
    expect(countsByDay({ ...plain, window: { startFrom: '2030-01-01 00:00:00', effective: {} } })).toBe(false);
    expect(countsByDay({ ...plain, window: { ...plain.window!, startsBefore: '2031-01-01 00:00:00' } })).toBe(false);
  });

  it('leaves every other filter to a count of rows', () => {
    expect(countsByDay({ ...plain, tokens: ['jazz'] })).toBe(false);
    expect(countsByDay({ ...plain, categoryIds: [1] })).toBe(false);
    expect(countsByDay({ ...plain, tagIds: [1] })).toBe(false);
    expect(countsByDay({ ...plain, linkFilters: [{ table: 'event_venues', column: 'venue_id', ids: [1] }] })).toBe(
      false,
    );
    expect(countsByDay({ ...plain, moduleConditions: [{ sql: '1 = 1', params: {} }] })).toBe(false);
    expect(countsByDay({ ...plain, featured: true })).toBe(false);
    expect(countsByDay({ ...plain, include: [1] })).toBe(false);
    expect(countsByDay({ ...plain, parentId: 4 })).toBe(false);
  });
});
