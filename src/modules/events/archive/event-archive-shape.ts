import type { ShapeParams } from '../../../database/shaped-queries';
import type { ArchiveSeek, EventArchiveFilter } from './event-archive-filter';
import type { DateWindow } from './event-window';

/** The archive page query's values, apart from its filter: where the page starts and how long it is. */
export interface ArchivePageBounds {
  seek?: ArchiveSeek;
  offset: number;
  limit: number;
}

/**
 * A page query of the archive as a shape (`ShapedQueries`): the key names everything that changes its
 * SQL, `params` every value, and `marked` is the filter with each value replaced by the parameter that
 * carries it, for building the SQL once. Null for what the key cannot describe (search tokens, module
 * conditions, a content rule with parameters): those queries are built every time.
 */
export interface ArchiveShape {
  key: string;
  params: ShapeParams;
  marked: (params: ShapeParams) => { filter: EventArchiveFilter; seek?: ArchiveSeek; offset: unknown; limit: unknown };
}

const WINDOW_BOUNDS = ['startFrom', 'endUntil', 'startsBefore', 'startsAfter', 'endsBefore', 'endsAfter'] as const;

export function archiveShapeOf(filter: EventArchiveFilter, bounds: ArchivePageBounds): ArchiveShape | null {
  if (filter.tokens.length > 0 || filter.moduleConditions.length > 0) return null;
  if (Object.keys(filter.contentVisible.params).length > 0) return null;
  const params: ShapeParams = { nowUtc: filter.nowUtc, offset: bounds.offset, limit: bounds.limit };
  const key: string[] = ['eventArchivePage', filter.scope.statuses.join(','), filter.contentVisible.sql];
  const put = (name: string, value: ShapeParams[string] | undefined) => {
    key.push(value === undefined ? '' : name);
    if (value !== undefined) params[name] = value;
  };
  put('ownerId', filter.scope.ownerId);
  for (const bound of WINDOW_BOUNDS) put(bound, filter.window?.[bound]);
  filter.termFilters.forEach((ids, i) => {
    key.push(`term${i}`);
    params[`term${i}`] = ids;
  });
  filter.linkFilters.forEach(({ table, column, ids }, i) => {
    key.push(`${table}.${column}`);
    params[`link${i}`] = ids;
  });
  // Booleans go as the drivers send them (SQLite takes no booleans): 1 or 0.
  put('featured', filter.featured === undefined ? undefined : Number(filter.featured));
  put('include', filter.include);
  put('parentId', filter.parentId);
  put('seriesId', filter.seriesId);
  put('seekFrom', bounds.seek?.startFrom);
  put('seekBefore', bounds.seek?.startBefore);
  return { key: key.join('|'), params, marked: (marks) => markedArchive(filter, bounds, marks) };
}

/** The filter and bounds with every value that `params` carries replaced by its marker in `marks`. */
function markedArchive(filter: EventArchiveFilter, bounds: ArchivePageBounds, marks: ShapeParams) {
  const mark = <T>(name: string, value: T): T => (value === undefined ? value : (marks[name] as T));
  const window: DateWindow | undefined = filter.window && { effective: filter.window.effective };
  if (window) for (const bound of WINDOW_BOUNDS) window[bound] = mark(bound, filter.window?.[bound]);
  const marked: EventArchiveFilter = {
    ...filter,
    scope: { statuses: filter.scope.statuses, ownerId: mark('ownerId', filter.scope.ownerId) },
    nowUtc: marks.nowUtc as string,
    window,
    termFilters: filter.termFilters.map((_ids, i) => marks[`term${i}`] as number[]),
    linkFilters: filter.linkFilters.map((link, i) => ({ ...link, ids: marks[`link${i}`] as number[] })),
    featured: mark('featured', filter.featured),
    include: mark('include', filter.include),
    parentId: mark('parentId', filter.parentId),
    seriesId: mark('seriesId', filter.seriesId),
  };
  const seek = bounds.seek && {
    startFrom: marks.seekFrom as string,
    startBefore: mark('seekBefore', bounds.seek.startBefore),
    offset: bounds.seek.offset,
    listed: bounds.seek.listed,
  };
  return { filter: marked, seek, offset: marks.offset, limit: marks.limit };
}
