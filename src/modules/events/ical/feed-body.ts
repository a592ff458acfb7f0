import { Injectable } from '@nestjs/common';
import { ICalCalendar, ICalCalendarMethod, ICalEvent } from 'ical-generator';
import { foregroundRequests } from '../../../common/background/foreground-requests';
import { SiteTime } from '../../../common/dates/site-time';
import type { RequestContext } from '../../../common/http/request-context';
import { ChangeHeads } from '../../../core/changes/change-heads';
import { EventArchive } from '../archive/event-archive';
import type { EventArchiveFilter } from '../archive/event-archive-filter';
import type { EventObject } from '../model/event.mapper';
import { EventObjectsService } from '../model/event-objects.service';
import { SeriesRepository } from '../recurrence/series.repository';
import type { FeedEntryState } from './feed-fingerprints';
import { foldLines } from './fold-lines';
import { toICalEventData } from './ical-event';
import { seriesVevents, type ListedOccurrence } from './series-vevents';
import { hasVtimezone, vtimezoneOf, type ZoneSpan } from './vtimezones';

/** Events read and written to the client per step: what bounds the feed's memory and how long a step holds the loop. */
export const FEED_CHUNK = 50;
/**
 * A series' occurrences read per batch. A series is written whole (its VEVENT and exceptions come from all its
 * listed occurrences), so it is held whole in any case: smaller batches only add queries (a five-year daily
 * series was 37 batches of eight), and a batch this size still reads in a few milliseconds.
 */
const SERIES_READ_CHUNK = 500;

/** A feed's text, step by step: the calendar's head, its events in chunks, each series whole, the end. */
@Injectable()
export class FeedBody {
  constructor(
    private readonly archive: EventArchive,
    private readonly objects: EventObjectsService,
    private readonly heads: ChangeHeads,
    private readonly series: SeriesRepository,
    private readonly siteTime: SiteTime,
  ) {}

  /**
   * Single events in chunks of {@link FEED_CHUNK}; then each series once, as one VEVENT with its exceptions
   * (`seriesVevents`), from the occurrences the feed lists. Each step waits for its turn after the requests
   * in flight (`foregroundRequests`): readers never queue behind a feed's chunks (and better-sqlite3's reads,
   * which block the loop, are one chunk each).
   */
  async *chunks(
    filter: EventArchiveFilter,
    entries: FeedEntryState[],
    zones: Map<string, ZoneSpan>,
    ctx: RequestContext,
  ): AsyncIterable<string> {
    yield this.header(zones, ctx);
    const turn = foregroundRequests.steps();
    const singles = entries.filter((e) => e.seriesId === null).map((e) => e.id);
    for (let i = 0; i < singles.length; i += FEED_CHUNK) {
      await turn();
      const { built, changed } = await this.built(filter, singles.slice(i, i + FEED_CHUNK), ctx);
      yield this.vevents(
        built.map((o) => o.object),
        changed,
      );
    }
    // Series whole, as many to a step as fit in FEED_CHUNK events (one series larger than that is a step of its own).
    const groups = new Map<number, number[]>();
    for (const e of entries) {
      if (e.seriesId === null) continue;
      const ids = groups.get(e.seriesId);
      if (ids) ids.push(e.id);
      else groups.set(e.seriesId, [e.id]);
    }
    const steps: number[][] = [];
    let step: number[] = [];
    let size = 0;
    for (const [seriesId, ids] of groups) {
      if (step.length > 0 && size + ids.length > FEED_CHUNK) {
        steps.push(step);
        step = [];
        size = 0;
      }
      step.push(seriesId);
      size += ids.length;
    }
    if (step.length > 0) steps.push(step);
    for (const seriesIds of steps) {
      await turn();
      yield await this.seriesPart(filter, seriesIds, groups, ctx);
    }
    yield 'END:VCALENDAR\r\n';
  }

  /** The event objects of those of `ids` that still match, and when each last changed. */
  private async built(filter: EventArchiveFilter, ids: number[], ctx: RequestContext) {
    const records = await this.archive.recordsStillMatching(filter, ids);
    const [built, changed] = await Promise.all([
      this.objects.fromRecords(records, ctx, () => false),
      this.heads.changedUtcOf(
        'event',
        records.map((r) => r.post.id),
      ),
    ]);
    return { built, changed };
  }

  /** Whole series as VEVENTs with their exceptions, from the occurrences of each the feed lists. */
  private async seriesPart(
    filter: EventArchiveFilter,
    seriesIds: number[],
    groups: Map<number, number[]>,
    ctx: RequestContext,
  ): Promise<string> {
    const rows = await this.series.rowsOf(seriesIds);
    const ids = seriesIds.flatMap((id) => groups.get(id) ?? []);
    const listed = new Map<number, ListedOccurrence[]>();
    for (let i = 0; i < ids.length; i += SERIES_READ_CHUNK) {
      const { built, changed } = await this.built(filter, ids.slice(i, i + SERIES_READ_CHUNK), ctx);
      for (const { object, details } of built) {
        if (details.occurrenceLocal === null || details.seriesId === null) continue;
        const list = listed.get(details.seriesId) ?? [];
        list.push({
          object,
          occurrenceLocal: details.occurrenceLocal,
          startUtc: details.startUtc,
          endUtc: details.endUtc,
          changedUtc: changed.get(details.postId),
        });
        listed.set(details.seriesId, list);
      }
    }
    const nowUtc = this.siteTime.now().utc;
    return seriesIds
      .map((id) => {
        const series = rows.get(id);
        return series ? seriesVevents(series, listed.get(id) ?? [], hasVtimezone, nowUtc) : '';
      })
      .join('');
  }

  /** The calendar's properties and a VTIMEZONE for every zone an event of the feed is written in. */
  header(zones: Map<string, ZoneSpan>, ctx: RequestContext): string {
    const calendar = new ICalCalendar({
      prodId: { company: 'cal-events', product: 'events-calendar', language: 'EN' },
      method: ICalCalendarMethod.PUBLISH,
      name: `${new URL(ctx.siteUrl).host} events`,
      timezone: this.siteTime.zone,
      // Suggested polling interval for subscribing clients (REFRESH-INTERVAL, X-PUBLISHED-TTL).
      ttl: 60 * 60,
    });
    const open = calendar.toString().replace(/END:VCALENDAR\s*$/, '');
    return open + [...zones].map(([zone, span]) => vtimezoneOf(zone, span) ?? '').join('');
  }

  /** `changed`: when each event, or anything it shows, last changed (`change_heads`), by id. */
  vevents(events: EventObject[], changed: Map<number, string>): string {
    const calendar = new ICalCalendar();
    return events
      .map((event) => {
        const data = toICalEventData(event, hasVtimezone, changed.get(Number(event.id)));
        return foldLines(new ICalEvent(data, calendar).toString());
      })
      .join('');
  }
}
