import { Injectable } from '@nestjs/common';
import { ChangeHeadEntity } from '../../../database/changes/change-head.entity';
import { DatabaseContext } from '../../../database/database-context';
import { sqlDateTime } from '../../../database/datetime.transformer';
import { RawRows } from '../../../database/raw-rows';
import { PostEntity } from '../../../core/posts/post.entity';
import { archiveQuery, type EventArchiveFilter } from './event-archive-filter';
import { EventDetailsEntity } from '../model/event-details.entity';
import { recordOf, type EventRecord } from '../model/event-record';
import type { FeedEntryState } from '../ical/feed-fingerprints';

/** The archive's rows as a feed reads them: its entries first, then the events chunk by chunk. */
@Injectable()
export class FeedRows {
  constructor(
    private readonly db: DatabaseContext,
    private readonly rows: RawRows,
  ) {}

  /**
   * The events of a feed in list order, at most `limit`: ids with the zone and modification time of each,
   * so the feed can name its time zones and validators before it streams the events themselves.
   */
  async entries(filter: EventArchiveFilter, limit: number): Promise<FeedEntryState[]> {
    // As the page query of listForArchive: the flag as an expression, so the window's range is what is read.
    const rows = await archiveQuery(this.db.manager, filter)
      .leftJoin(ChangeHeadEntity, 'h', 'h.resource = :headResource AND h.resourceId = p.id', { headResource: 'event' })
      .andWhere('d.hide_from_listings + 0 = 0')
      .select([
        'p.id AS id',
        'd.timezone AS timezone',
        'd.allDay AS all_day',
        'p.modifiedUtc AS modified_utc',
        'd.startUtc AS start_utc',
        'd.endUtc AS end_utc',
        'h.changedUtc AS changed_utc',
        'h.seq AS changed_seq',
        'd.seriesId AS series_id',
      ])
      .orderBy(filter.include ? 'p.dateUtc' : 'd.startUtc', 'ASC')
      .addOrderBy('d.postId', 'ASC')
      .limit(limit)
      .getRawMany<{
        id: number | string;
        timezone: string;
        all_day: number | string | boolean;
        modified_utc: string | Date;
        start_utc: string | Date;
        end_utc: string | Date;
        changed_utc: string | Date | null;
        changed_seq: number | string | null;
        series_id: number | string | null;
      }>();
    return rows.map((r) => ({
      id: Number(r.id),
      timezone: r.timezone,
      allDay: Number(r.all_day) === 1 || r.all_day === true,
      modifiedUtc: String(sqlDateTime.from(r.modified_utc)),
      startUtc: String(sqlDateTime.from(r.start_utc)),
      endUtc: String(sqlDateTime.from(r.end_utc)),
      changedUtc: (sqlDateTime.from(r.changed_utc) as string | null) ?? null,
      changedSeq: Number(r.changed_seq ?? 0),
      seriesId: r.series_id === null || r.series_id === undefined ? null : Number(r.series_id),
    }));
  }

  /**
   * The records of those of `ids` that still match `filter`, in the order of `ids`: a feed reads each chunk
   * so, the filter and the rows in one statement, and so never writes an event that was made private,
   * draft or hidden (or stopped matching a filter) after the feed's ids were read.
   */
  async chunk(filter: EventArchiveFilter, ids: number[]): Promise<EventRecord[]> {
    if (ids.length === 0) return [];
    const raw = await archiveQuery(this.db.manager, filter)
      .andWhere('d.hide_from_listings + 0 = 0')
      .andWhere('p.id IN (:...chunkIds)', { chunkIds: ids })
      .select(this.rows.select(PostEntity, 'p'))
      .addSelect(this.rows.select(EventDetailsEntity, 'd'))
      .getRawMany<Record<string, unknown>>();
    const byId = new Map(raw.map((row) => recordOf(this.rows, row)!).map((record) => [record.post.id, record]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
