import { Injectable } from '@nestjs/common';
import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { PageRequest } from '../../../common/pagination/pagination';
import { contentVisibleCondition } from '../../../core/posts/post-visibility';
import { ShapedQueries, unionAll, type ShapeParams } from '../../../database/shaped-queries';
import { exactOnlyFieldsSet } from './archive-filter-fields';
import { nextDayStart } from './event-window';
import type { ArchiveSeek, EventArchiveFilter } from './event-archive-filter';

/** An archive the day counts can serve: its window, and the one term it is filtered by, if any. */
export interface DayCountRoute {
  window: { startFrom: string; endUntil: string };
  termId?: number;
  /** The window runs from a UTC midnight to 23:59:59 of a UTC day, so buckets alone cover it exactly. */
  aligned: boolean;
}

export const PUBLIC_CONTENT = contentVisibleCondition(null, 'p').sql;

/**
 * The window of an archive of the public scope filtered by nothing but a plain date window
 * (`start ≥ from`, `end ≤ until`), search and terms aside: what the count tables can serve.
 */
export function plainPublicWindow(filter: EventArchiveFilter): { startFrom: string; endUntil: string } | undefined {
  const w = filter.window;
  const publicScope =
    filter.scope.ownerId === undefined && filter.scope.statuses.length === 1 && filter.scope.statuses[0] === 'publish';
  // Every other field is classified in ARCHIVE_FILTER_FIELDS: any set that the count tables do not know
  // (a link, a module's filter, a new field) sends the archive to the exact query.
  const plain =
    publicScope &&
    w?.startFrom !== undefined &&
    w.endUntil !== undefined &&
    [w.startsBefore, w.startsAfter, w.endsBefore, w.endsAfter].every((b) => b === undefined) &&
    exactOnlyFieldsSet(filter).length === 0;
  return plain ? { startFrom: w.startFrom!, endUntil: w.endUntil! } : undefined;
}

/**
 * Whether an archive may take its total (and the start of its page) from the day counts: a plain public
 * window (`plainPublicWindow`), no search, and at most one term (of any taxonomy on events: the per-term
 * counts hold every term), which needs the public's content rule (password-protected events never match a
 * term filter). Everything else counts rows.
 */
export function dayCountRoute(filter: EventArchiveFilter): DayCountRoute | undefined {
  const window = plainPublicWindow(filter);
  if (!window || filter.tokens.length > 0) return undefined;
  const aligned = window.startFrom.endsWith(' 00:00:00') && window.endUntil.endsWith(' 23:59:59');
  const { termFilters } = filter;
  if (termFilters.length === 0) return { window, aligned };
  const [ids] = termFilters;
  if (termFilters.length > 1 || ids.length !== 1 || filter.contentVisible.sql !== PUBLIC_CONTENT) {
    return undefined;
  }
  return { window, termId: ids[0], aligned };
}

/** Listed events per start day, in day order. */
export interface DayTotal {
  day: string;
  listed: number;
}

/** Counts per day summed over parts that may repeat a day, in day order, empty days and `day` NULL rows left out. */
export function daysInOrder(rows: { day: string | null; listed: number | string | null }[]): DayTotal[] {
  const byDay = new Map<string, number>();
  for (const { day, listed } of rows) if (day !== null) byDay.set(day, (byDay.get(day) ?? 0) + Number(listed));
  return [...byDay]
    .map(([day, listed]) => ({ day, listed }))
    .filter((d) => d.listed > 0)
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/**
 * Where page `page` of an archive whose events start on `days` lies: the start days its rows fall in and
 * how many rows of the first of them to skip, so the page query reads a day or two of rows instead of
 * walking its offset from the window's start. None when the page is past the end.
 */
export function seekInDays(days: DayTotal[], page: PageRequest): ArchiveSeek | undefined {
  let before = 0;
  let first: { day: string; skip: number; before: number } | undefined;
  for (const { day, listed } of days) {
    if (!first && before + listed > page.offset) first = { day, skip: page.offset - before, before };
    before += listed;
    if (first && before >= page.offset + page.perPage) {
      const startFrom = `${first.day} 00:00:00`;
      return { startFrom, startBefore: nextDayStart(day), offset: first.skip, listed: before - first.before };
    }
  }
  return first && { startFrom: `${first.day} 00:00:00`, offset: first.skip, listed: before - first.before };
}

/** A total and, when the counts say where the page starts, the seek for the page query. */
export interface ListingPlan {
  total: number;
  seek?: ArchiveSeek;
}

/** Reads the day counts `EventListingDays` keeps for an archive served by them. */
@Injectable()
export class EventListingPlan {
  constructor(private readonly shaped: ShapedQueries) {}

  /**
   * Undefined when rows must be counted after all (a term archive with scheduled posts just fallen due).
   * The first page of an archive without a term needs no seek (its query reads the window's first rows in
   * index order), so it asks for one sum per part instead of a row per day of the window: a year's window
   * sends 365 rows less. A term archive keeps its seek on every page: bounded to a day or two, its page
   * query is read by start date; unbounded, MySQL may read it from the term's side (0.7 s at 1M events).
   */
  async plan(route: DayCountRoute, nowUtc: string, page: PageRequest): Promise<ListingPlan | undefined> {
    const totalOnly = page.offset === 0 && route.termId === undefined;
    const { days, due } = await this.dayTotals(route, nowUtc, totalOnly);
    const counted = days.reduce((sum, d) => sum + d.listed, 0);
    // A scheduled post past its date is listed but in no bucket, so it would shift every later page.
    if (due > 0) return route.termId === undefined ? { total: counted + due } : undefined;
    return totalOnly ? { total: counted } : { total: counted, seek: seekInDays(days, page) };
  }

  /**
   * Listed events per start day of the window, and the scheduled posts already due there, in one round
   * trip (a UNION; the due count is the row whose day is NULL). A window of whole UTC days is a range of
   * buckets. Otherwise the parts are disjoint: events starting on the window's first day (rows of that
   * day), events starting and ending on the days in between (buckets), and events starting later that end
   * on its last day (rows ending that day, grouped by start day) — so each row part reads one day of events.
   */
  private async dayTotals(
    route: DayCountRoute,
    nowUtc: string,
    totalOnly: boolean,
  ): Promise<{ days: DayTotal[]; due: number }> {
    const { startFrom: from, endUntil: until } = route.window;
    const firstDay = from.slice(0, 10);
    const lastDay = until.slice(0, 10);
    const params: ShapeParams = {
      firstDay,
      lastDay,
      from,
      until,
      afterFirstDay: nextDayStart(firstDay),
      lastDayStart: `${lastDay} 00:00:00`,
      now: nowUtc,
      ...(route.termId === undefined ? {} : { termId: route.termId }),
    };
    // Eight shapes (whole days or not, a term or not, per day or summed), each built once: the values are all bound.
    const shape =
      `dayTotals:${route.aligned ? 'days' : 'split'}:${route.termId === undefined ? 'all' : 'term'}` +
      `:${totalOnly ? 'sum' : 'per-day'}`;
    const rows = await this.shaped.rawMany<{ day: string | null; listed: number | string }>(
      shape,
      params,
      (manager, p) => {
        const parts = route.aligned
          ? [
              this.buckets(
                manager,
                route,
                'c.start_day >= :firstDay AND c.start_day <= :lastDay AND c.end_day <= :lastDay',
                p,
                totalOnly,
              ),
            ]
          : [
              this.listedRows(manager, route, p)
                .select(':firstDay', 'day')
                .addSelect('COUNT(*)', 'listed')
                .andWhere('d.start_utc >= :from AND d.start_utc < :afterFirstDay AND d.end_utc <= :until', p),
              this.buckets(manager, route, 'c.start_day > :firstDay AND c.end_day < :lastDay', p, totalOnly),
              this.endingOnLastDay(manager, route, p, totalOnly),
            ];
        parts.push(
          manager
            .createQueryBuilder()
            .from('posts', 'p')
            .innerJoin('event_details', 'd', 'd.post_id = p.id')
            .select('NULL', 'day')
            .addSelect('COUNT(*)', 'listed')
            .where("p.status = 'future' AND p.date_utc <= :now", p)
            .andWhere('d.hide_from_listings = :hidden', { hidden: false })
            .andWhere('d.start_utc >= :from AND d.end_utc <= :until', p),
        );
        return unionAll(parts);
      },
    );
    return { days: daysInOrder(rows), due: Number(rows.find((r) => r.day === null)?.listed ?? 0) };
  }

  /**
   * Listed events per start day from the bucket rows `where` selects (overall or of the route's term), or
   * their sum in one row labelled with the window's first day.
   */
  private buckets(
    manager: EntityManager,
    route: DayCountRoute,
    where: string,
    params: ShapeParams,
    summed: boolean,
  ): SelectQueryBuilder<ObjectLiteral> {
    const qb = manager
      .createQueryBuilder()
      .from(route.termId === undefined ? 'event_listing_days' : 'event_term_listing_days', 'c')
      .select(summed ? ':firstDay' : 'c.start_day', 'day')
      .addSelect('SUM(c.listed)', 'listed')
      .where(where, params);
    if (!summed) qb.groupBy('c.start_day');
    if (route.termId !== undefined) qb.andWhere('c.term_id = :termId', params);
    return qb;
  }

  /** Events starting after the window's first day that end on its last, per start day or summed. */
  private endingOnLastDay(
    manager: EntityManager,
    route: DayCountRoute,
    params: ShapeParams,
    summed: boolean,
  ): SelectQueryBuilder<ObjectLiteral> {
    const qb = this.listedRows(manager, route, params)
      .select(summed ? ':firstDay' : 'SUBSTR(d.start_utc, 1, 10)', 'day')
      .addSelect('COUNT(*)', 'listed')
      .andWhere('d.end_utc >= :lastDayStart AND d.end_utc <= :until AND d.start_utc >= :afterFirstDay', params);
    return summed ? qb : qb.groupBy('SUBSTR(d.start_utc, 1, 10)');
  }

  /** Events counted in the buckets, read from their rows: published, listed, and for a term, carrying it without a password. */
  private listedRows(
    manager: EntityManager,
    route: DayCountRoute,
    params: ShapeParams,
  ): SelectQueryBuilder<ObjectLiteral> {
    const qb = manager
      .createQueryBuilder()
      .from('event_details', 'd')
      .innerJoin('posts', 'p', 'p.id = d.post_id')
      .where("p.status = 'publish' AND d.hide_from_listings = :hidden", { hidden: false });
    if (route.termId !== undefined) {
      qb.andWhere('p.password_hash IS NULL').andWhere(
        'EXISTS (SELECT 1 FROM term_relationships tr WHERE tr.post_id = p.id AND tr.term_id = :termId)',
        params,
      );
    }
    return qb;
  }
}
