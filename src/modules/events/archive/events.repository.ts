import { Injectable } from '@nestjs/common';
import { In, type SelectQueryBuilder } from 'typeorm';
import { ChangeHeadEntity } from '../../../database/changes/change-head.entity';
import { sqlDateTime } from '../../../database/datetime.transformer';
import type { PageRequest } from '../../../common/pagination/pagination';
import type { Dialect } from '../../../common/http/request-context';
import { applyListScope, type ListScope } from '../../../core/posts/post-query';
import { PostEntity } from '../../../core/posts/post.entity';
import { CALENDAR_POST_TYPES } from '../../calendar-post-types';
import { EventDetailsEntity } from '../model/event-details.entity';
import { DatabaseContext } from '../../../database/database-context';
import { RawRows } from '../../../database/raw-rows';
import { ShapedQueries, type BuiltQuery } from '../../../database/shaped-queries';
import { archiveShapeOf } from './event-archive-shape';
import { archiveQuery, type ArchiveSeek, type EventArchiveFilter } from './event-archive-filter';
import { recordOf, type EventRecord } from '../model/event-record';
import { DocumentFormat } from '../derived/documents/document-format';
import { selectDocument, storedDocumentOf, type StoredEventDocument } from '../derived/documents/stored-event-document';

/** Orders `YYYY-MM-DD HH:MM:SS` texts (both databases hand UTC times back as such text). */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Event queries, named by what they are for. */
@Injectable()
export class EventsRepository {
  constructor(
    private readonly db: DatabaseContext,
    private readonly rows: RawRows,
    private readonly shaped: ShapedQueries,
    private readonly documentFormat: DocumentFormat,
  ) {}

  /**
   * One page of the archive and its total (`totalOf` may know it already): two queries whatever the page size. Hidden events never
   * appear; order is start (UTC) then id, or publication date then id for `include`. `seek` (from the day
   * counts) narrows the page query to the days its rows start on.
   */
  async listForArchive(
    filter: EventArchiveFilter,
    page: PageRequest,
    totalOf: (count: () => Promise<number>) => Promise<number> = (count) => count(),
    seek?: ArchiveSeek,
    /** `exact`: the page query built for this filter, never a cached shape (READ_FAST_PATHS=false). */
    options: { exact?: boolean } = {},
  ): Promise<{ events: EventRecord[]; total: number }> {
    const total = await totalOf(() => this.countArchive(filter));
    // Past the last page there is nothing to read (and a huge page number must not walk the whole window).
    if (page.offset >= total) return { events: [], total };
    const bounds = { seek, offset: seek ? seek.offset : page.offset, limit: page.perPage };
    const shape = options.exact ? null : archiveShapeOf(filter, bounds);
    const raw = shape
      ? await this.shaped.rawMany<Record<string, unknown>>(shape.key, shape.params, (_manager, params) => {
          const marked = shape.marked(params);
          return withLimit(this.archivePageQuery(marked.filter, marked.seek), marked.limit, marked.offset);
        })
      : await this.archivePageQuery(filter, seek)
          .offset(bounds.offset)
          .limit(bounds.limit)
          .getRawMany<Record<string, unknown>>();
    return { events: raw.map((row) => recordOf(this.rows, row)!), total };
  }

  /**
   * A plain public archive's page skipped to through the listing index alone (hide_from_listings,
   * start_utc, post_id, end_utc) and only then joined to its rows: skipping hundreds of a day's events by
   * OFFSET costs a posts lookup each in the page query (1.3 ms for 400 at a million events). Exact only
   * while every event the index holds in the seek's range is listed, so the statement also counts them,
   * and a count other than the day counts' (a draft or a private event starts in the range) answers
   * undefined: the page query reads the page instead.
   */
  async listedPage(
    window: { startFrom: string; endUntil: string },
    seek: ArchiveSeek,
    perPage: number,
  ): Promise<EventRecord[] | undefined> {
    const inRange = (a: string) =>
      `${a}.hide_from_listings = 0 AND ${a}.start_utc >= :windowFrom AND ${a}.end_utc <= :windowUntil
        AND ${a}.start_utc >= :seekFrom AND ${a}.start_utc ${seek.startBefore === undefined ? '<=' : '<'} :seekUntil`;
    const raw = await this.db.manager
      .createQueryBuilder(PostEntity, 'p')
      .innerJoin(
        (page) =>
          page
            .select('s.post_id', 'id')
            .addSelect(`(SELECT COUNT(*) FROM event_details c WHERE ${inRange('c')})`, 'listed')
            .from(EventDetailsEntity, 's')
            .where(inRange('s'))
            .orderBy('s.start_utc')
            .addOrderBy('s.post_id')
            .limit(perPage)
            .offset(seek.offset),
        'page',
        'page.id = p.id',
      )
      .innerJoin(EventDetailsEntity, 'd', 'd.postId = p.id')
      .select(this.rows.select(PostEntity, 'p'))
      .addSelect(this.rows.select(EventDetailsEntity, 'd'))
      .addSelect('page.listed', 'page__listed')
      .setParameters({
        windowFrom: window.startFrom,
        windowUntil: window.endUntil,
        seekFrom: seek.startFrom,
        seekUntil: seek.startBefore ?? window.endUntil,
      })
      .getRawMany<Record<string, unknown>>();
    if (raw.length === 0 || Number(raw[0].page__listed) !== seek.listed) return undefined;
    // Put in list order here: ordered by the database, the joined rows cost MySQL a temporary table.
    return raw
      .map((row) => recordOf(this.rows, row)!)
      .sort((x, y) => byText(x.details.startUtc, y.details.startUtc) || x.post.id - y.post.id);
  }

  /** The archive's size for `filter`. */
  private async countArchive(filter: EventArchiveFilter): Promise<number> {
    // The join is one-to-one, so a plain COUNT(*) is exact (TypeORM's COUNT(DISTINCT) costs a sort).
    // The count reads the listing index alone (hide_from_listings, start_utc, post_id, end_utc).
    const counting = archiveQuery(this.db.manager, filter)
      .andWhere('d.hideFromListings = :hidden', { hidden: false })
      .select('COUNT(*)', 'n');
    return Number((await counting.getRawOne<{ n: number | string }>())?.n ?? 0);
  }

  /** The archive's rows for a page, in list order, without its offset and length. */
  private archivePageQuery(filter: EventArchiveFilter, seek: ArchiveSeek | undefined): SelectQueryBuilder<PostEntity> {
    // Unlike the count, the page must not read the listing index: with `hide_from_listings = ?` MySQL
    // reads it by its first column in list order and walks every earlier event before the window (60 ms at
    // a million events); written as an expression, the condition leaves it the range of
    // IDX_event_details_start, which starts at the window.
    const qb = archiveQuery(this.db.manager, filter).andWhere('d.hide_from_listings + 0 = 0');
    if (seek) qb.andWhere('d.startUtc >= :seekFrom', { seekFrom: seek.startFrom });
    if (seek?.startBefore) qb.andWhere('d.startUtc < :seekBefore', { seekBefore: seek.startBefore });
    // Not joined to the event documents: with the join MariaDB reads the posts first and sorts the window.
    return qb
      .orderBy(filter.include ? 'p.dateUtc' : 'd.startUtc', 'ASC')
      .addOrderBy('d.postId', 'ASC')
      .select(this.rows.select(PostEntity, 'p'))
      .addSelect(this.rows.select(EventDetailsEntity, 'd'));
  }

  /**
   * One page of the events hidden from listings that `scope` may see, of any date, by id, and how many
   * there are (`GET /events/hidden`: what a mirror cannot read from any list). A plain query on posts and
   * details: no day counts or listing index, which know only listed events.
   */
  async hiddenPage(scope: ListScope, nowUtc: string, page: PageRequest): Promise<{ ids: number[]; total: number }> {
    const query = () =>
      applyListScope(
        this.db.manager
          .createQueryBuilder(PostEntity, 'p')
          .innerJoin(EventDetailsEntity, 'd', 'd.postId = p.id')
          .where('p.type = :type', { type: CALENDAR_POST_TYPES.event })
          .andWhere('d.hide_from_listings + 0 = 1'),
        'p',
        scope,
        nowUtc,
      );
    const [total, rows] = await Promise.all([
      query().getCount(),
      query()
        .select('p.id', 'id')
        .orderBy('p.id', 'ASC')
        .offset(page.offset)
        .limit(page.perPage)
        .getRawMany<{ id: number | string }>(),
    ]);
    return { ids: rows.map((r) => Number(r.id)), total };
  }

  /**
   * Events by id, in the order of `ids` (ids of events gone since are skipped); `withDocument` adds each
   * one's stored document (the read model's builder needs its generation; lists, feeds and the change
   * feed do not).
   */
  async recordsInOrder(
    ids: number[],
    options: { withDocument?: boolean; dialect?: Dialect } = {},
  ): Promise<EventRecord[]> {
    if (ids.length === 0) return [];
    const qb = this.db.manager
      .createQueryBuilder(PostEntity, 'p')
      .innerJoin(EventDetailsEntity, 'd', 'd.postId = p.id')
      .select(this.rows.select(PostEntity, 'p'))
      .addSelect(this.rows.select(EventDetailsEntity, 'd'))
      .where('p.id IN (:...ids)', { ids });
    const format = this.documentFormat.keyFor(options.dialect ?? 'cal');
    const raw = await (options.withDocument ? selectDocument(qb, false, format) : qb).getRawMany<
      Record<string, unknown>
    >();
    const byId = new Map(raw.map((row) => recordOf(this.rows, row)!).map((record) => [record.post.id, record]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Any post by id, whatever its type, with its event details when it has them: tells "no such event"
   * from "not an event" in the same query that reads the event. Its stored document is the dialect's.
   */
  async findAnyWithDetails(
    id: number,
    dialect: Dialect = 'cal',
  ): Promise<{
    post: PostEntity;
    details: EventDetailsEntity | null;
    changedUtc: string | null;
    document: StoredEventDocument | null;
  } | null> {
    const values = { id, documentFormat: this.documentFormat.keyFor(dialect) };
    const [row] = await this.shaped.rawMany<Record<string, unknown>>('findAnyWithDetails', values, (manager, params) =>
      selectDocument(
        manager
          .createQueryBuilder(PostEntity, 'p')
          .leftJoin(EventDetailsEntity, 'd', 'd.postId = p.id')
          // When the event or what it embeds last changed (Last-Modified), in the same round trip.
          .leftJoin(ChangeHeadEntity, 'h', "h.resource = 'event' AND h.resourceId = p.id")
          .select(this.rows.select(PostEntity, 'p'))
          .addSelect(this.rows.select(EventDetailsEntity, 'd'))
          .addSelect('h.changed_utc', 'h__changed_utc')
          .where('p.id = :id', params),
        true,
        params.documentFormat as string,
      ),
    );
    if (!row) return null;
    return {
      post: this.rows.read(PostEntity, 'p', row)!,
      details: this.rows.read(EventDetailsEntity, 'd', row),
      changedUtc: (sqlDateTime.from(row.h__changed_utc ?? null) as string | null) ?? null,
      document: storedDocumentOf(row),
    };
  }

  async detailsOf(ids: number[]): Promise<Map<number, EventDetailsEntity>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.manager.findBy(EventDetailsEntity, { postId: In(ids) });
    return new Map(rows.map((r) => [r.postId, r]));
  }

  /** Any post by id, whatever its type: tells "no such event" from "not an event". */
  findAnyPost(id: number): Promise<PostEntity | null> {
    return this.db.manager.findOneBy(PostEntity, { id });
  }

  /** Every event below `id` through parent links (to refuse a parent cycle). */
  async descendantIds(id: number): Promise<Set<number>> {
    const found = new Set<number>();
    let frontier = [id];
    while (frontier.length > 0) {
      const children = await this.db.manager.find(PostEntity, {
        select: { id: true },
        where: { type: CALENDAR_POST_TYPES.event, parentId: In(frontier) },
      });
      frontier = children.map((c) => c.id).filter((c) => !found.has(c));
      frontier.forEach((c) => found.add(c));
    }
    return found;
  }
}

/**
 * The query with its page bounds as parameters, so one shape serves every page (the query builder writes
 * them into the SQL). Both dialects read `LIMIT ? OFFSET ?`.
 */
function withLimit(qb: BuiltQuery, limit: unknown, offset: unknown): BuiltQuery {
  return {
    getQueryAndParameters: () => {
      const [sql, params] = qb.getQueryAndParameters();
      return [`${sql} LIMIT ? OFFSET ?`, [...params, limit, offset]];
    },
  };
}
