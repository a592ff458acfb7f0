import { describe, expect, it } from '@jest/globals';
import { toAuthUser } from '../../../auth/auth-user';
import { contentVisibleCondition } from '../../../core/posts/post-visibility';
import type { ShapeParams } from '../../../database/shaped-queries';
import { archiveShapeOf } from './event-archive-shape';
import type { EventArchiveFilter } from './event-archive-filter';

const editor = toAuthUser({ id: 7, role: 'editor', login: 'ed' });
const author = toAuthUser({ id: 9, role: 'author', login: 'au' });

/** Every field the page query reads, set (`Required`: a field added to the filter must be added here). */
const full: Required<EventArchiveFilter> = {
  scope: { statuses: ['publish', 'draft'], ownerId: 9 },
  nowUtc: '2030-03-01 12:00:00',
  window: {
    startFrom: '2030-01-01 00:00:00',
    endUntil: '2031-01-01 00:00:00',
    startsBefore: '2030-06-01 00:00:00',
    startsAfter: '2030-02-01 00:00:00',
    endsBefore: '2030-07-01 00:00:00',
    endsAfter: '2030-02-02 00:00:00',
    effective: {},
  },
  tokens: [],
  termFilters: [[11, 12], [13]],
  linkFilters: [{ table: 'event_venues', column: 'venue_id', ids: [14, 15] }],
  featured: true,
  include: [16, 17],
  parentId: 18,
  seriesId: 19,
  contentVisible: contentVisibleCondition(editor, 'p'),
  moduleConditions: [],
};
const seek = { startFrom: '2030-03-03 00:00:00', startBefore: '2030-03-04 00:00:00', offset: 2 };
const bounds = { seek, offset: 2, limit: 10 };

/** Every value a filter holds (not its SQL), as strings. */
function leavesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(leavesOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(leavesOf);
  return [String(value)];
}

describe('the archive page query as a shape', () => {
  it('carries every value as a parameter, so the SQL built from one filter serves another of its shape', () => {
    const shape = archiveShapeOf(full, bounds)!;
    const marks: ShapeParams = Object.fromEntries(
      Object.entries(shape.params).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.map((_v, i) => `mark:${name}:${i}`) : `mark:${name}`,
      ]),
    );
    const marked = shape.marked(marks);
    const { contentVisible, scope, ...values } = marked.filter;
    const left = leavesOf({ values, ownerId: scope.ownerId, seek: marked.seek && { ...marked.seek, offset: 0 } })
      .concat(String(marked.offset), String(marked.limit))
      .filter((leaf) => !leaf.startsWith('mark:') && leaf !== 'undefined' && leaf !== '0');
    expect(left).toEqual(['event_venues', 'venue_id']);
    expect(scope.statuses).toEqual(['publish', 'draft']);
    expect(contentVisible).toBe(full.contentVisible);
    expect(shape.params).toMatchObject({
      featured: 1,
      term0: [11, 12],
      term1: [13],
      link0: [14, 15],
      offset: 2,
      limit: 10,
    });
  });

  it('gives every difference in which filters are present a key of its own', () => {
    const variants: EventArchiveFilter[] = [
      full,
      { ...full, scope: { statuses: ['publish', 'draft'] } },
      { ...full, scope: { statuses: ['publish'], ownerId: 9 } },
      { ...full, window: undefined },
      ...(['startFrom', 'endUntil', 'startsBefore', 'startsAfter', 'endsBefore', 'endsAfter'] as const).map(
        (bound) => ({
          ...full,
          window: { ...full.window, [bound]: undefined },
        }),
      ),
      { ...full, termFilters: [[11, 12]] },
      { ...full, termFilters: [] },
      { ...full, linkFilters: [] },
      { ...full, linkFilters: [{ table: 'event_organizers', column: 'organizer_id', ids: [14, 15] }] },
      { ...full, featured: undefined },
      { ...full, include: undefined },
      { ...full, parentId: undefined },
      { ...full, seriesId: undefined },
      { ...full, contentVisible: contentVisibleCondition(null, 'p') },
    ];
    const keys = variants.map((filter) => archiveShapeOf(filter, bounds)!.key);
    expect(new Set(keys).size).toBe(variants.length);
    expect(archiveShapeOf(full, { ...bounds, seek: undefined })!.key).not.toBe(keys[0]);
    expect(archiveShapeOf(full, { ...bounds, seek: { ...seek, startBefore: undefined } })!.key).not.toBe(keys[0]);
  });

  it('keeps one key for the same filters with other values', () => {
    const other: EventArchiveFilter = {
      ...full,
      nowUtc: '2031-01-01 00:00:00',
      termFilters: [
        [21, 22],
        [23, 24, 25],
      ],
      featured: false,
      parentId: 99,
      seriesId: 98,
      scope: { statuses: ['publish', 'draft'], ownerId: 1 },
    };
    expect(archiveShapeOf(other, { ...bounds, offset: 40, limit: 50 })!.key).toBe(archiveShapeOf(full, bounds)!.key);
  });

  it('leaves to the query builder what its key cannot describe', () => {
    expect(archiveShapeOf({ ...full, tokens: ['jazz'] }, bounds)).toBeNull();
    expect(archiveShapeOf({ ...full, moduleConditions: [{ sql: 'd.cost > 0', params: {} }] }, bounds)).toBeNull();
    expect(archiveShapeOf({ ...full, contentVisible: contentVisibleCondition(author, 'p') }, bounds)).toBeNull();
  });
});
