import { Injectable } from '@nestjs/common';
import { CommitSteps } from '../../../database/commit-steps';
import { changedEvents, noop } from '../model/event-changes';
import { EVENT_POST_TYPE } from '../model/event.post-type';
import { DatabaseContext } from '../../../database/database-context';

/** UTC days of an event counted as listed: the bucket of `event_listing_days` it adds one to. */
interface Bucket {
  startDay: string;
  endDay: string;
}

/** What an event adds to the counts: one to its bucket, and one to its bucket under each of `termIds`. */
interface Contribution {
  bucket: Bucket;
  /** Sorted; empty for an event with a password (term filters never match it for the public). */
  termIds: number[];
}

const bucketKey = (b: Bucket) => `${b.startDay}|${b.endDay}`;
const sameContribution = (a: Contribution, b: Contribution) =>
  bucketKey(a.bucket) === bucketKey(b.bucket) && a.termIds.join(',') === b.termIds.join(',');

/** A counter row: the bucket, and the term for `event_term_listing_days` (absent for `event_listing_days`). */
interface CounterRow {
  termId?: number;
  bucket: Bucket;
}

const counterKey = (r: CounterRow) => `${r.termId ?? ''}|${bucketKey(r.bucket)}`;

/** Count changes per counter row, handed out in key order so concurrent writers lock shared rows in one order. */
class CounterDeltas {
  private readonly byKey = new Map<string, { row: CounterRow; delta: number }>();

  move(contribution: Contribution, delta: number): void {
    this.add({ bucket: contribution.bucket }, delta);
    for (const termId of contribution.termIds) this.add({ termId, bucket: contribution.bucket }, delta);
  }

  inKeyOrder(): { row: CounterRow; delta: number }[] {
    const key = (e: { row: CounterRow }) => counterKey(e.row);
    return [...this.byKey.values()]
      .filter((d) => d.delta !== 0)
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  private add(row: CounterRow, delta: number): void {
    const entry = this.byKey.get(counterKey(row)) ?? { row, delta: 0 };
    entry.delta += delta;
    this.byKey.set(counterKey(row), entry);
  }
}

interface EventRow {
  id: number | string;
  status: string;
  hidden: number | string | boolean;
  has_password: number | string;
  start_utc: string;
  end_utc: string;
  mark_start: string | null;
  mark_end: string | null;
}

/**
 * Listed events per (start day, end day), overall and per term, kept in the write's transaction, so the
 * total of a date window — and where a page of it starts — costs the same at a million events as at ten
 * thousand (read by `EventListingPlan`). An event is listed when published and not hidden from listings;
 * scheduled posts that fell due before the publisher flipped them are counted from rows (there are few).
 * See docs/performance.md.
 */
@Injectable()
export class EventListingDays {
  constructor(
    private readonly db: DatabaseContext,
    commitSteps: CommitSteps,
  ) {
    // Kept in step by the write's change stream: every event a write created, changed or (re)published.
    commitSteps.add((changes) => this.sync(changedEvents(changes)));
    commitSteps.addBeforeDelete((resource, ids) =>
      resource === EVENT_POST_TYPE.noun ? this.forget([...ids]) : noop(),
    );
  }

  /** Brings what each of these events (other post types are ignored) is counted as in line with its rows. */
  async sync(postIds: number[]): Promise<void> {
    if (postIds.length === 0) return;
    const rows = await this.db.manager
      .createQueryBuilder()
      .from('posts', 'p')
      .innerJoin('event_details', 'd', 'd.post_id = p.id')
      .leftJoin('event_listing_marks', 'm', 'm.post_id = p.id')
      .select(['p.id AS id', 'p.status AS status', 'd.hide_from_listings AS hidden'])
      .addSelect('CASE WHEN p.password_hash IS NULL THEN 0 ELSE 1 END', 'has_password')
      .addSelect(['d.start_utc AS start_utc', 'd.end_utc AS end_utc'])
      .addSelect(['m.start_day AS mark_start', 'm.end_day AS mark_end'])
      .where('p.id IN (:...postIds)', { postIds })
      .getRawMany<EventRow>();
    const listed = rows.filter((r) => r.status === 'publish' && !Number(r.hidden));
    const listedRows = new Set(listed);
    const wantedTerms = await this.termIdsOf(
      'term_relationships',
      listed.filter((r) => !Number(r.has_password)).map((r) => Number(r.id)),
    );
    const countedTerms = await this.termIdsOf(
      'event_term_listing_marks',
      rows.filter((r) => r.mark_start !== null).map((r) => Number(r.id)),
    );
    const deltas = new CounterDeltas();
    const unmarked: number[] = [];
    const marked: { id: number; contribution: Contribution }[] = [];
    for (const row of rows) {
      const id = Number(row.id);
      const wanted: Contribution | null = listedRows.has(row)
        ? {
            bucket: { startDay: row.start_utc.slice(0, 10), endDay: row.end_utc.slice(0, 10) },
            termIds: wantedTerms.get(id) ?? [],
          }
        : null;
      const counted: Contribution | null =
        row.mark_start === null || row.mark_end === null
          ? null
          : { bucket: { startDay: row.mark_start, endDay: row.mark_end }, termIds: countedTerms.get(id) ?? [] };
      if (wanted && counted && sameContribution(wanted, counted)) continue;
      if (counted) {
        deltas.move(counted, -1);
        unmarked.push(id);
      }
      if (wanted) {
        deltas.move(wanted, 1);
        marked.push({ id, contribution: wanted });
      }
    }
    await this.unmark(unmarked);
    await this.mark(marked);
    await this.apply(deltas);
  }

  /** Records what these events are counted as: one statement per table, however many the publisher flipped. */
  private async mark(marked: { id: number; contribution: Contribution }[]): Promise<void> {
    if (marked.length > 0) {
      await this.insertRows(
        'event_listing_marks',
        ['post_id', 'start_day', 'end_day'],
        marked.map(({ id, contribution: { bucket } }) => ({
          post_id: id,
          start_day: bucket.startDay,
          end_day: bucket.endDay,
        })),
      );
      await this.insertRows(
        'event_term_listing_marks',
        ['post_id', 'term_id'],
        marked.flatMap(({ id, contribution }) =>
          contribution.termIds.map((termId) => ({ post_id: id, term_id: termId })),
        ),
      );
    }
  }

  /** Takes these events out of the counts: before they are deleted for good (the cascade drops their marks). */
  async forget(postIds: number[]): Promise<void> {
    if (postIds.length === 0) return;
    const marks = await this.db.manager
      .createQueryBuilder()
      .from('event_listing_marks', 'm')
      .select(['m.post_id AS id', 'm.start_day AS start_day', 'm.end_day AS end_day'])
      .where('m.post_id IN (:...postIds)', { postIds })
      .getRawMany<{ id: number | string; start_day: string; end_day: string }>();
    const terms = await this.termIdsOf(
      'event_term_listing_marks',
      marks.map((m) => Number(m.id)),
    );
    await this.unmark(marks.map((m) => Number(m.id)));
    const deltas = new CounterDeltas();
    for (const m of marks) {
      deltas.move({ bucket: { startDay: m.start_day, endDay: m.end_day }, termIds: terms.get(Number(m.id)) ?? [] }, -1);
    }
    await this.apply(deltas);
  }

  /** Term ids per post from `table` (`post_id`, `term_id`), each list sorted. */
  private async termIdsOf(table: string, postIds: number[]): Promise<Map<number, number[]>> {
    const byPost = new Map<number, number[]>();
    if (postIds.length === 0) return byPost;
    const rows = await this.db.manager
      .createQueryBuilder()
      .from(table, 't')
      .select(['t.post_id AS post_id', 't.term_id AS term_id'])
      .where('t.post_id IN (:...postIds)', { postIds })
      .getRawMany<{ post_id: number | string; term_id: number | string }>();
    for (const row of rows) {
      const list = byPost.get(Number(row.post_id)) ?? [];
      list.push(Number(row.term_id));
      byPost.set(Number(row.post_id), list);
    }
    for (const list of byPost.values()) list.sort((a, b) => a - b);
    return byPost;
  }

  private async unmark(postIds: number[]): Promise<void> {
    if (postIds.length === 0) return;
    for (const table of ['event_term_listing_marks', 'event_listing_marks']) {
      await this.db.manager
        .createQueryBuilder()
        .delete()
        .from(table)
        .where('post_id IN (:...postIds)', { postIds })
        .execute();
    }
  }

  private async insertRows(table: string, columns: string[], values: Record<string, string | number>[]): Promise<void> {
    if (values.length === 0) return;
    await this.db.insertOnly(table, values, columns);
  }

  /** One upsert per table and size of change: for a single write, one per table. */
  private async apply(deltas: CounterDeltas): Promise<void> {
    const groups = new Map<string, { table: string; delta: number; keys: Record<string, string | number>[] }>();
    for (const { row, delta } of deltas.inKeyOrder()) {
      const table = row.termId === undefined ? 'event_listing_days' : 'event_term_listing_days';
      const group = groups.get(`${table}|${delta}`) ?? { table, delta, keys: [] };
      group.keys.push({
        ...(row.termId === undefined ? {} : { term_id: row.termId }),
        start_day: row.bucket.startDay,
        end_day: row.bucket.endDay,
      });
      groups.set(`${table}|${delta}`, group);
    }
    for (const { table, delta, keys } of groups.values()) {
      const keyColumns =
        table === 'event_listing_days' ? ['start_day', 'end_day'] : ['term_id', 'start_day', 'end_day'];
      await this.db.addToCounters(table, keyColumns, 'listed', keys, delta);
    }
  }
}
