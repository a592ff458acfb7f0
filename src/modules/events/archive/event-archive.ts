import { Injectable } from '@nestjs/common';
import { ListTotalsCache } from '../../../common/pagination/list-totals.cache';
import type { PageRequest } from '../../../common/pagination/pagination';
import { AppConfig } from '../../../config/app-config';
import { dayCountRoute, EventListingPlan } from './event-listing-plan';
import { EventSearchPlan, searchWordRoute } from './event-search-plan';
import { EventsRepository } from './events.repository';
import type { EventArchiveFilter } from './event-archive-filter';
import type { EventRecord } from '../model/event-record';
import { FeedRows } from './feed-rows.repository';
import type { FeedEntryState } from '../ical/feed-fingerprints';

/**
 * From how many events into its first day a page skips by the listing index (`listedPage`): below it, the
 * page query's own skip costs no more.
 */
const INDEX_SKIP_FROM = 40;

/**
 * Every read of an event archive, JSON lists (and the TEC alias, which answers through them) and iCalendar
 * feeds alike. A page, whichever way it is read: the public's one-word search from the word index, a plain
 * window from the day counts (deep pages through the listing-index skip), anything else by the page query
 * with a reused total; with `READ_FAST_PATHS=false`, always the exact query. Which way may serve a filter is
 * decided by archive-filter-fields.ts alone: a filter field the fast paths do not know sends the archive to
 * the exact query. A whole archive (a feed) is read by the exact query only: it reads every match anyway,
 * so a count or a skip has nothing to save.
 */
@Injectable()
export class EventArchive {
  constructor(
    private readonly events: EventsRepository,
    private readonly listing: EventListingPlan,
    private readonly searchPlan: EventSearchPlan,
    private readonly totals: ListTotalsCache,
    private readonly config: AppConfig,
    private readonly feedRows: FeedRows,
  ) {}

  /** `totalKey`: the key the page query's total is reused under (serialising the filter is not free). */
  async page(
    filter: EventArchiveFilter,
    page: PageRequest,
    totalKey: () => string,
  ): Promise<{ events: EventRecord[]; total: number }> {
    if (!this.config.readFastPaths) {
      return this.events.listForArchive(filter, page, (count) => count(), undefined, { exact: true });
    }
    return (await this.fromSearchIndex(filter, page)) ?? (await this.fromRows(filter, page, totalKey));
  }

  /** The public's one-word search, when the word index answers it alone. */
  private async fromSearchIndex(
    filter: EventArchiveFilter,
    page: PageRequest,
  ): Promise<{ events: EventRecord[]; total: number } | undefined> {
    const route = searchWordRoute(filter);
    const found = route && (await this.searchPlan.page(route, filter.nowUtc, page));
    return found && { events: await this.events.recordsInOrder(found.ids), total: found.total };
  }

  /** An archive read from the event rows, its total from the day counts when they can give it. */
  private async fromRows(
    filter: EventArchiveFilter,
    page: PageRequest,
    totalKey: () => string,
  ): Promise<{ events: EventRecord[]; total: number }> {
    const route = dayCountRoute(filter);
    const plan = route && (await this.listing.plan(route, filter.nowUtc, page));
    const seek = plan?.seek;
    // Deep into a day, skipping by the listing index alone saves a posts lookup per skipped event.
    if (route && route.termId === undefined && seek && seek.offset >= INDEX_SKIP_FROM) {
      const events = await this.events.listedPage(route.window, seek, page.perPage);
      if (events) return { events, total: plan.total };
    }
    return this.events.listForArchive(
      filter,
      page,
      (count) => (plan ? Promise.resolve(plan.total) : this.totals.reuse(totalKey(), count)),
      plan?.seek,
    );
  }

  /** A whole archive in list order, at most `limit` entries (a feed names its zones and validators first). */
  entries(filter: EventArchiveFilter, limit: number): Promise<FeedEntryState[]> {
    return this.feedRows.entries(filter, limit);
  }

  /**
   * The records of those of `ids` that still match `filter`, in the order of `ids`: a feed streams its entries
   * in such chunks, so an event that stopped matching (made private, draft or hidden) after `entries` is left out.
   */
  recordsStillMatching(filter: EventArchiveFilter, ids: number[]): Promise<EventRecord[]> {
    return this.feedRows.chunk(filter, ids);
  }
}
