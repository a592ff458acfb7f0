import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { ListScope } from '../../../core/posts/post-query';
import { applyListScope } from '../../../core/posts/post-query';
import type { SqlCondition } from '../../../core/posts/post-visibility';
import { PostEntity } from '../../../core/posts/post.entity';
import { CALENDAR_POST_TYPES } from '../../calendar-post-types';
import { EventDetailsEntity } from '../model/event-details.entity';
import { applyEventSearch } from './event-search-filter';
import type { DateWindow } from './event-window';

export interface EventArchiveFilter {
  scope: ListScope;
  nowUtc: string;
  /** Absent when `include` is given: explicit ids ignore date filters. */
  window?: DateWindow;
  tokens: string[];
  /**
   * Term filters (categories, tags, every module taxonomy on events), all of which an event must match: each
   * a set of term ids of which it must carry one (a hierarchical filter's terms with their descendants).
   */
  termFilters: number[][];
  /** Declared links (venues, organizers, …): events linked to any of `ids` through `table`.`column`. */
  linkFilters: { table: string; column: string; ids: number[] }[];
  featured?: boolean;
  include?: number[];
  parentId?: number;
  /** The occurrences of one series (`series_id=`). */
  seriesId?: number;
  /**
   * Posts whose protected content the caller may see. Search matches only the title of the others, and
   * filters on what a password blanks (terms, links, modules' filters) never match them: either
   * would reveal what the object blanks.
   */
  contentVisible: SqlCondition;
  /** Conditions of list filters that modules added (`EventListFilterRegistry`). */
  moduleConditions: SqlCondition[];
}

/**
 * Where a page's rows lie, known from the day counts: events starting in [startFrom, startBefore), after
 * skipping `offset` of them. Saves walking the page's whole offset from the window's start.
 */
export interface ArchiveSeek {
  startFrom: string;
  /** Absent when the page runs to the window's end. */
  startBefore?: string;
  offset: number;
  /** How many listed events start in the range, by the day counts (a search's seek leaves it out). */
  listed?: number;
}

/** The archive's rows for `filter`: every condition but the listing flag, which callers state their way. */
export function archiveQuery(manager: EntityManager, filter: EventArchiveFilter): SelectQueryBuilder<PostEntity> {
  const qb = manager
    .createQueryBuilder(PostEntity, 'p')
    .innerJoin(EventDetailsEntity, 'd', 'd.postId = p.id')
    .where('p.type = :type', { type: CALENDAR_POST_TYPES.event });
  applyListScope(qb, 'p', filter.scope, filter.nowUtc);
  const w = filter.window;
  if (w?.startFrom) qb.andWhere('d.startUtc >= :startFrom', { startFrom: w.startFrom });
  // An event ends no earlier than it starts, so the end bounds bound the start too: said outright, they
  // end the index range the page query reads by start, which otherwise runs on through every later
  // event whenever the window holds fewer rows than the page asks for (its last page: 120 ms at 1M).
  if (w?.endUntil) qb.andWhere('d.endUtc <= :endUntil AND d.startUtc <= :endUntil', { endUntil: w.endUntil });
  if (w?.startsBefore) qb.andWhere('d.startUtc < :startsBefore', { startsBefore: w.startsBefore });
  if (w?.startsAfter) qb.andWhere('d.startUtc > :startsAfter', { startsAfter: w.startsAfter });
  if (w?.endsBefore) qb.andWhere('d.endUtc < :endsBefore AND d.startUtc < :endsBefore', { endsBefore: w.endsBefore });
  if (w?.endsAfter) qb.andWhere('d.endUtc > :endsAfter', { endsAfter: w.endsAfter });
  const visible = filter.contentVisible;
  applyEventSearch(qb, filter.tokens, visible);
  // A filter on what a password blanks (terms, links, any module's) never matches a protected event the caller
  // cannot read: a match would tell what the blanked object hides. Modules' filters get this without asking: a
  // filter that leaks is not theirs to forget to guard.
  // (`featured` too: a protected event shows `featured: null` to such a caller.)
  const onBlanked =
    filter.termFilters.length > 0 ||
    filter.linkFilters.length > 0 ||
    filter.moduleConditions.length > 0 ||
    filter.featured !== undefined;
  if (onBlanked) qb.andWhere(visible.sql, visible.params);
  const linked = (name: string, sql: string, ids: number[] | undefined) => {
    if (ids) qb.andWhere(`EXISTS (${sql} IN (:...${name}))`, { [name]: ids });
  };
  filter.termFilters.forEach((ids, i) =>
    linked(`term${i}Ids`, `SELECT 1 FROM term_relationships r${i} WHERE r${i}.post_id = p.id AND r${i}.term_id`, ids),
  );
  filter.linkFilters.forEach(({ table, column, ids }, i) =>
    linked(`link${i}Ids`, `SELECT 1 FROM ${table} l${i} WHERE l${i}.event_id = p.id AND l${i}.${column}`, ids),
  );
  for (const condition of filter.moduleConditions) qb.andWhere(condition.sql, condition.params);
  if (filter.featured !== undefined) qb.andWhere('d.featured = :featured', { featured: filter.featured });
  if (filter.parentId !== undefined) qb.andWhere('p.parentId = :parentId', { parentId: filter.parentId });
  if (filter.seriesId !== undefined) qb.andWhere('d.seriesId = :seriesId', { seriesId: filter.seriesId });
  if (filter.include) qb.andWhere('p.id IN (:...include)', { include: filter.include });
  return qb;
}
