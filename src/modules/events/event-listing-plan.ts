import { Injectable } from '@nestjs/common';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { PageRequest } from '../../common/pagination/pagination';
import { contentVisibleCondition } from '../../core/posts/post-visibility';
import { DatabaseContext } from '../../database/database-context';
import { nextDayStart } from './event-window';
import type { ArchiveSeek, EventArchiveFilter } from './events.repository';

/** An archive the day counts can serve: its window, and the one term it is filtered by, if any. */
export interface DayCountRoute {
  window: { startFrom: string; endUntil: string };
  termId?: number;
  /** The window runs from a UTC midnight to 23:59:59 of a UTC day, so whole buckets cover it exactly. */
  aligned: boolean;
}

const PUBLIC_CONTENT = contentVisibleCondition(null, 'p').sql;

/**
 * Whether an archive may take its total (and the start of its page) from the day counts: the public
 * scope, a plain date window (`start ≥ from`, `end ≤ until`) and at most one category or tag, which needs
 * a window of whole UTC days and the public's content rule (password-protected events never match a term
 * filter). Everything else counts rows.
 */
export function dayCountRoute(filter: EventArchiveFilter): DayCountRoute | undefined {
  const w = filter.window;
  const publicScope =
    filter.scope.ownerId === undefined && filter.scope.statuses.length === 1 && filter.scope.statuses[0] === 'publish';
  const plain =
    publicScope &&
    w?.startFrom !== undefined &&
    w.endUntil !== undefined &&
    [w.startsBefore, w.startsAfter, w.endsBefore, w.endsAfter].every((b) => b === undefined) &&
    filter.tokens.length === 0 &&
    filter.linkFilters.length === 0 &&
    filter.moduleConditions.length === 0 &&
    filter.featured === undefined &&
    filter.include === undefined &&
    filter.parentId === undefined;
  if (!plain) return undefined;
  const window = { startFrom: w.startFrom!, endUntil: w.endUntil! };
  const aligned = window.startFrom.endsWith(' 00:00:00') && window.endUntil.endsWith(' 23:59:59');
  const termFilters = [filter.categoryIds, filter.tagIds].filter((ids) => ids !== undefined);
  if (termFilters.length === 0) return { window, aligned };
  const [ids] = termFilters;
  if (termFilters.length > 1 || ids.length !== 1 || !aligned || filter.contentVisible.sql !== PUBLIC_CONTENT) {
    return undefined;
  }
  return { window, termId: ids[0], aligned };
}

/** Listed events per start day, in day order. */
export interface DayTotal {
  day: string;
  listed: number;
}

/**
 * Where page `page` of an archive whose events start on `days` lies: the start days its rows fall in and
 * how many rows of the first of them to skip, so the page query reads a day or two of rows instead of
 * walking its offset from the window's start. None when the page is past the end.
 */
export function seekInDays(days: DayTotal[], page: PageRequest): ArchiveSeek | undefined {
  let before = 0;
  let first: { day: string; skip: number } | undefined;
  for (const { day, listed } of days) {
    if (!first && before + listed > page.offset) first = { day, skip: page.offset - before };
    before += listed;
    if (first && before >= page.offset + page.perPage) {
      return { startFrom: `${first.day} 00:00:00`, startBefore: nextDayStart(day), offset: first.skip };
    }
  }
  return first && { startFrom: `${first.day} 00:00:00`, offset: first.skip };
}

/** A total and, when the counts say where the page starts, the seek for the page query. */
export interface ListingPlan {
  total: number;
  seek?: ArchiveSeek;
}

/** Reads the day counts `EventListingDays` keeps for an archive served by them. */
@Injectable()
export class EventListingPlan {
  constructor(private readonly db: DatabaseContext) {}

  /** Undefined when rows must be counted after all (a term archive with scheduled posts just fallen due). */
  async plan(route: DayCountRoute, nowUtc: string, page: PageRequest): Promise<ListingPlan | undefined> {
    if (!route.aligned) return { total: await this.edgedTotal(route.window, nowUtc) };
    const { days, due } = await this.dayTotals(route, nowUtc);
    const counted = days.reduce((sum, d) => sum + d.listed, 0);
    // A scheduled post past its date is listed but in no bucket, so it would shift every later page.
    if (due > 0) return route.termId === undefined ? { total: counted + due } : undefined;
    return { total: counted, seek: seekInDays(days, page) };
  }

  /**
   * Listed events per start day of a whole-day window, from `event_listing_days` or its per-term twin, and
   * the scheduled posts already due there: one round trip (a UNION; the due count is the row whose day is
   * NULL).
   */
  private async dayTotals(route: DayCountRoute, nowUtc: string): Promise<{ days: DayTotal[]; due: number }> {
    const firstDay = route.window.startFrom.slice(0, 10);
    const lastDay = route.window.endUntil.slice(0, 10);
    const perDay = this.db.manager
      .createQueryBuilder()
      .from(route.termId === undefined ? 'event_listing_days' : 'event_term_listing_days', 'c')
      .select('c.start_day', 'day')
      .addSelect('SUM(c.listed)', 'listed')
      .where('c.start_day >= :firstDay AND c.start_day <= :lastDay AND c.end_day <= :lastDay', { firstDay, lastDay })
      .groupBy('c.start_day');
    if (route.termId !== undefined) perDay.andWhere('c.term_id = :termId', { termId: route.termId });
    const due = this.dueQuery(nowUtc, route.window.startFrom, route.window.endUntil, '<=').select('NULL', 'day');
    due.addSelect('COUNT(*)', 'listed');
    const [perDaySql, perDayParams]: [string, unknown[]] = perDay.getQueryAndParameters();
    const [dueSql, dueParams]: [string, unknown[]] = due.getQueryAndParameters();
    const rows = await this.db.manager.query<{ day: string | null; listed: number | string }[]>(
      `${perDaySql} UNION ALL ${dueSql}`,
      [...perDayParams, ...dueParams],
    );
    const days = rows
      .filter((r): r is { day: string; listed: number | string } => r.day !== null)
      .map((r) => ({ day: r.day, listed: Number(r.listed) }))
      .filter((r) => r.listed > 0)
      .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    return { days, due: Number(rows.find((r) => r.day === null)?.listed ?? 0) };
  }

  /** Scheduled posts past their date whose events lie in the window (the publisher has not flipped them yet). */
  private dueQuery(
    nowUtc: string,
    from: string,
    until: string,
    endsBefore: '<' | '<=',
  ): SelectQueryBuilder<ObjectLiteral> {
    return this.db.manager
      .createQueryBuilder()
      .from('posts', 'p')
      .innerJoin('event_details', 'd', 'd.post_id = p.id')
      .where("p.status = 'future' AND p.date_utc <= :now", { now: nowUtc })
      .andWhere('d.hide_from_listings = :hidden', { hidden: false })
      .andWhere(`d.start_utc >= :from AND d.end_utc ${endsBefore} :until`, { from, until });
  }

  /**
   * The total of a window whose ends fall inside UTC days. Disjoint parts: events starting on the window's
   * first day (rows), events starting later and ending on its last day (rows), events starting and ending
   * on whole days in between (day counts), and due scheduled posts of that middle part (rows). Each row
   * part reads at most two days of events.
   */
  private async edgedTotal(window: { startFrom: string; endUntil: string }, nowUtc: string): Promise<number> {
    const { startFrom: from, endUntil: until } = window;
    const firstDay = from.slice(0, 10);
    const lastDay = until.slice(0, 10);
    const afterFirstDay = nextDayStart(firstDay);
    const lastDayStart = `${lastDay} 00:00:00`;
    const visible = "(p.status = 'publish' OR (p.status = 'future' AND p.date_utc <= :now))";
    const rows = (where: string, params: Record<string, string>) =>
      this.countRows(
        this.db.manager
          .createQueryBuilder()
          .from('event_details', 'd')
          .innerJoin('posts', 'p', 'p.id = d.post_id')
          .where('d.hide_from_listings = :hidden', { hidden: false })
          .andWhere(where, params),
      );
    const [first, last, middle, due] = await Promise.all([
      rows(`${visible} AND d.start_utc >= :from AND d.start_utc < :afterFirstDay AND d.end_utc <= :until`, {
        now: nowUtc,
        from,
        afterFirstDay,
        until,
      }),
      rows(`${visible} AND d.end_utc >= :lastDayStart AND d.end_utc <= :until AND d.start_utc >= :afterFirstDay`, {
        now: nowUtc,
        lastDayStart,
        until,
        afterFirstDay,
      }),
      this.db.manager
        .createQueryBuilder()
        .from('event_listing_days', 'c')
        .select('SUM(c.listed)', 'n')
        .where('c.start_day > :firstDay AND c.end_day < :lastDay', { firstDay, lastDay })
        .getRawOne<{ n: number | string | null }>()
        .then((r) => Number(r?.n ?? 0)),
      // From the posts side: the few `future` rows past their date, not the window's events.
      this.countRows(this.dueQuery(nowUtc, afterFirstDay, lastDayStart, '<')),
    ]);
    return first + last + middle + due;
  }

  private async countRows(qb: SelectQueryBuilder<ObjectLiteral>): Promise<number> {
    const row = await qb.select('COUNT(*)', 'n').getRawOne<{ n: number | string }>();
    return Number(row?.n ?? 0);
  }
}
