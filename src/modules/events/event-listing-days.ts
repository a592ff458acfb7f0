import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../common/errors/driver-errors';
import { PostStatusListeners } from '../../core/posts/post-status-listeners';
import { DatabaseContext } from '../../database/database-context';
import { nextDayStart } from './event-window';
import type { EventArchiveFilter } from './events.repository';

/** UTC days of an event counted as listed: the bucket of `event_listing_days` it adds one to. */
interface Bucket {
  startDay: string;
  endDay: string;
}

const bucketKey = (b: Bucket) => `${b.startDay}|${b.endDay}`;

/** Count changes per bucket, handed out in key order so concurrent writers lock shared rows in one order. */
class BucketDeltas {
  private readonly byKey = new Map<string, { bucket: Bucket; delta: number }>();

  move(bucket: Bucket, delta: number): void {
    const entry = this.byKey.get(bucketKey(bucket)) ?? { bucket, delta: 0 };
    entry.delta += delta;
    this.byKey.set(bucketKey(bucket), entry);
  }

  inKeyOrder(): { bucket: Bucket; delta: number }[] {
    return [...this.byKey.values()]
      .filter((d) => d.delta !== 0)
      .sort((a, b) => bucketKey(a.bucket).localeCompare(bucketKey(b.bucket)));
  }
}

/**
 * Whether an archive total may come from the day counts: the public scope and a plain date window
 * (`start ≥ from`, `end ≤ until`), no other filter. Everything else counts rows.
 */
export function countsByDay(filter: EventArchiveFilter): filter is EventArchiveFilter & {
  window: { startFrom: string; endUntil: string };
} {
  const w = filter.window;
  const publicScope =
    filter.scope.ownerId === undefined && filter.scope.statuses.length === 1 && filter.scope.statuses[0] === 'publish';
  return (
    publicScope &&
    w?.startFrom !== undefined &&
    w.endUntil !== undefined &&
    [w.startsBefore, w.startsAfter, w.endsBefore, w.endsAfter].every((b) => b === undefined) &&
    filter.tokens.length === 0 &&
    !filter.categoryIds &&
    !filter.tagIds &&
    filter.linkFilters.length === 0 &&
    filter.moduleConditions.length === 0 &&
    filter.featured === undefined &&
    filter.include === undefined &&
    filter.parentId === undefined
  );
}

/**
 * Listed events per (start day, end day), kept in the write's transaction, so the total of a date window
 * costs the same at a million events as at ten thousand. An event is listed when published and not
 * hidden from listings; scheduled posts that fell due before the publisher flipped them are counted
 * from rows (there are few). See docs/performance.md.
 */
@Injectable()
export class EventListingDays {
  constructor(
    private readonly db: DatabaseContext,
    statusListeners: PostStatusListeners,
  ) {
    statusListeners.add((changes) => this.sync(changes.map((c) => c.postId)));
  }

  /** Brings the counted bucket of each of these events (other post types are ignored) in line with its row. */
  async sync(postIds: number[]): Promise<void> {
    if (postIds.length === 0) return;
    const rows = await this.db.manager
      .createQueryBuilder()
      .from('posts', 'p')
      .innerJoin('event_details', 'd', 'd.post_id = p.id')
      .leftJoin('event_listing_marks', 'm', 'm.post_id = p.id')
      .select(['p.id AS id', 'p.status AS status', 'd.hide_from_listings AS hidden'])
      .addSelect([
        'd.start_utc AS start_utc',
        'd.end_utc AS end_utc',
        'm.start_day AS mark_start',
        'm.end_day AS mark_end',
      ])
      .where('p.id IN (:...postIds)', { postIds })
      .getRawMany<{
        id: number | string;
        status: string;
        hidden: number | string | boolean;
        start_utc: string;
        end_utc: string;
        mark_start: string | null;
        mark_end: string | null;
      }>();
    const deltas = new BucketDeltas();
    const unmarked: number[] = [];
    const marked: { post_id: number; start_day: string; end_day: string }[] = [];
    for (const row of rows) {
      const id = Number(row.id);
      const listed = row.status === 'publish' && !Number(row.hidden);
      const wanted: Bucket | null = listed
        ? { startDay: row.start_utc.slice(0, 10), endDay: row.end_utc.slice(0, 10) }
        : null;
      const counted: Bucket | null =
        row.mark_start === null || row.mark_end === null ? null : { startDay: row.mark_start, endDay: row.mark_end };
      if (wanted && counted && bucketKey(wanted) === bucketKey(counted)) continue;
      if (counted) {
        deltas.move(counted, -1);
        unmarked.push(id);
      }
      if (wanted) {
        deltas.move(wanted, 1);
        marked.push({ post_id: id, start_day: wanted.startDay, end_day: wanted.endDay });
      }
    }
    // One statement each, however many events the publisher flipped at once.
    if (unmarked.length > 0) {
      await this.db.manager
        .createQueryBuilder()
        .delete()
        .from('event_listing_marks')
        .where('post_id IN (:...unmarked)', { unmarked })
        .execute();
    }
    if (marked.length > 0) {
      await this.db.manager
        .createQueryBuilder()
        .insert()
        .into('event_listing_marks', ['post_id', 'start_day', 'end_day'])
        .values(marked)
        .execute();
    }
    for (const { bucket, delta } of deltas.inKeyOrder()) await this.add(bucket, delta);
  }

  /** Takes these events out of the counts: before they are deleted for good (the cascade drops their marks). */
  async forget(postIds: number[]): Promise<void> {
    if (postIds.length === 0) return;
    const marks = await this.db.manager
      .createQueryBuilder()
      .from('event_listing_marks', 'm')
      .select(['m.start_day AS start_day', 'm.end_day AS end_day'])
      .where('m.post_id IN (:...postIds)', { postIds })
      .getRawMany<{ start_day: string; end_day: string }>();
    await this.db.manager
      .createQueryBuilder()
      .delete()
      .from('event_listing_marks')
      .where('post_id IN (:...postIds)', { postIds })
      .execute();
    const deltas = new BucketDeltas();
    for (const m of marks) deltas.move({ startDay: m.start_day, endDay: m.end_day }, -1);
    for (const { bucket, delta } of deltas.inKeyOrder()) await this.add(bucket, delta);
  }

  /**
   * The number of events a public archive with only a date window lists. Disjoint parts: events starting
   * on the window's first day (rows), events starting later and ending on its last day (rows), events
   * starting and ending on whole days in between (day counts), and due scheduled posts of that middle
   * part (rows). Each row part reads at most two days of events.
   */
  async total(window: { startFrom: string; endUntil: string }, nowUtc: string): Promise<number> {
    const { startFrom: from, endUntil: until } = window;
    const firstDay = from.slice(0, 10);
    const lastDay = until.slice(0, 10);
    const afterFirstDay = nextDayStart(firstDay);
    const lastDayStart = `${lastDay} 00:00:00`;
    const visible = "(p.status = 'publish' OR (p.status = 'future' AND p.date_utc <= :now))";
    const rows = (where: string, params: Record<string, string>) =>
      this.db.manager
        .createQueryBuilder()
        .from('event_details', 'd')
        .innerJoin('posts', 'p', 'p.id = d.post_id')
        .select('COUNT(*)', 'n')
        .where('d.hide_from_listings = :hidden', { hidden: false })
        .andWhere(where, params)
        .getRawOne<{ n: number | string }>()
        .then((r) => Number(r?.n ?? 0));
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
      this.db.manager
        .createQueryBuilder()
        .from('posts', 'p')
        .innerJoin('event_details', 'd', 'd.post_id = p.id')
        .select('COUNT(*)', 'n')
        .where("p.status = 'future' AND p.date_utc <= :now", { now: nowUtc })
        .andWhere('d.hide_from_listings = :hidden', { hidden: false })
        .andWhere('d.start_utc >= :afterFirstDay AND d.end_utc < :lastDayStart', { afterFirstDay, lastDayStart })
        .getRawOne<{ n: number | string }>()
        .then((r) => Number(r?.n ?? 0)),
    ]);
    return first + last + middle + due;
  }

  private async add(bucket: Bucket, delta: number): Promise<void> {
    const update = () =>
      this.db.manager
        .createQueryBuilder()
        .update('event_listing_days')
        .set({ listed: () => `listed + ${Math.trunc(delta)}` })
        .where('start_day = :startDay AND end_day = :endDay', bucket)
        .execute();
    if ((await update()).affected) return;
    try {
      // A bucket's first event: another writer may be creating the same row; then add to theirs.
      await this.db.inSavepoint(() =>
        this.db.manager
          .createQueryBuilder()
          .insert()
          .into('event_listing_days', ['start_day', 'end_day', 'listed'])
          .values({ start_day: bucket.startDay, end_day: bucket.endDay, listed: delta })
          .execute(),
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await update();
    }
  }
}
