import { Injectable } from '@nestjs/common';
import { postPolicy } from '../../../auth/post-policy';
import { rememberChangedUtc } from '../../../core/changes/known-changed-time';
import { modifiedAfterCondition } from '../../../core/changes/modified-after';
import { resolveZone } from '../../../common/dates/date-input';
import { SiteTime } from '../../../common/dates/site-time';
import { DomainError } from '../../../common/errors/domain-error';
import type { Dialect, RequestContext } from '../../../common/http/request-context';
import {
  buildListResponse,
  isBeyondLastPage,
  resolvePageRequest,
  type ListResponse,
} from '../../../common/pagination/pagination';
import { searchTokens } from '../../../common/search/search-tokens';
import { RequestValidationError } from '../../../common/validation/request-validation.error';
import { reason } from '../../../common/validation/validation-messages';
import { AppConfig } from '../../../config/app-config';
import { postErrors } from '../../../core/posts/post-errors';
import { listScopeFor } from '../../../core/posts/post-query';
import { PostPasswords } from '../../../core/posts/post-passwords';
import { PostRecordsService } from '../../../core/posts/post-records.service';
import type { PostRef } from '../../../core/posts/post-ref';
import { isPublic } from '../../../core/posts/post-status';
import { contentVisibleCondition } from '../../../core/posts/post-visibility';
import type { PostEntity } from '../../../core/posts/post.entity';
import { TermReferencesService } from '../../../core/terms/term-references.service';
import { CALENDAR_POST_TYPES } from '../../calendar-post-types';
import type { ListEventsQueryDto } from './dto/list-events-query.dto';
import type { PaginationQueryDto } from '../../../common/pagination/pagination-query.dto';
import type { SingleEventObject } from '../model/event-objects.service';
import type { PreparedRecordJson } from '../../../common/http/prepared-json';
import { EVENT_POST_TYPE, EVENTS_REST_BASE } from '../model/event.post-type';
import { resolveDateWindow, type DateWindow } from '../archive/event-window';
import { EventObjectsService } from '../model/event-objects.service';
import { EventDocuments } from '../derived/documents/event-documents.service';
import type { EventDetailsEntity } from '../model/event-details.entity';
import { EventArchive } from '../archive/event-archive';
import { EventsRepository } from '../archive/events.repository';
import type { EventArchiveFilter } from '../archive/event-archive-filter';
import type { EventRecord } from '../model/event-record';
import type { EventLinkTarget } from '../extension-points/links/event-link';
import { EventListFilterRegistry } from '../extension-points/links/event-list-filter';
import { EventTaxonomyRegistry } from '../extension-points/taxonomies/event-taxonomy';
import { EventLinkRegistry } from '../extension-points/links/event-links.module';
import { linkValueOf } from '../extension-points/links/link-values';
import { listEchoOf } from '../fields/list-echo';
import { SeriesRepository } from '../recurrence/series.repository';

/** Event reads (behaviour.md §5, §7): one event with its password rule, and the filtered archive. */
@Injectable()
export class EventsQueryService {
  constructor(
    private readonly events: EventsRepository,
    private readonly objects: EventObjectsService,
    private readonly records: PostRecordsService,
    private readonly passwords: PostPasswords,
    private readonly termReferences: TermReferencesService,
    private readonly links: EventLinkRegistry,
    private readonly filters: EventListFilterRegistry,
    private readonly siteTime: SiteTime,
    private readonly config: AppConfig,
    private readonly archive: EventArchive,
    private readonly documents: EventDocuments,
    private readonly eventTaxonomies: EventTaxonomyRegistry,
    private readonly series: SeriesRepository,
  ) {}

  /** The ids of a series' occurrences at these rule times (RECURRENCE-IDs), by rule time; missing ones left out. */
  occurrenceIdsOf(seriesId: number, occurrenceLocals: readonly string[]): Promise<Map<string, number>> {
    return this.series.occurrenceIdsAt(seriesId, occurrenceLocals);
  }

  async list(query: ListEventsQueryDto, ctx: RequestContext): Promise<ListResponse> {
    const { filter, window } = await this.archiveFilter(query, ctx);
    const page = resolvePageRequest(query.page, query.per_page, this.config.maxPerPage);
    // Only an archive the day counts cannot serve needs it (serialising the filter is not free).
    const totalKey = () =>
      JSON.stringify([
        'events',
        { ...filter, nowUtc: undefined, contentVisible: undefined },
        ctx.user && `${ctx.user.id}:${ctx.user.role}`,
      ]);
    const { events, total } = await this.archive.page(filter, page, totalKey);
    if (isBeyondLastPage(page, total)) throw postErrors.archivePageNotFound(EVENT_POST_TYPE);
    return buildListResponse({
      key: EVENTS_REST_BASE,
      items: await this.documents.listObjects(events, ctx),
      total,
      page,
      collectionUrl: `${ctx.namespaceUrl}/${EVENTS_REST_BASE}`,
      query: listEchoOf(query, window?.effective),
    });
  }

  /**
   * `GET /events/hidden`: the events hidden from listings that the caller may see, of any date, by id, as
   * list items. With the lists (no date window) they make the visible set the change feed converges to,
   * so a mirror can be built from reads alone.
   */
  async listHidden(query: PaginationQueryDto, ctx: RequestContext): Promise<ListResponse> {
    const page = resolvePageRequest(query.page, query.per_page, this.config.maxPerPage);
    const { ids, total } = await this.events.hiddenPage(
      listScopeFor(ctx.user, undefined),
      this.siteTime.now().utc,
      page,
    );
    if (isBeyondLastPage(page, total)) throw postErrors.archivePageNotFound(EVENT_POST_TYPE);
    const objects = await this.objects.fromRecords(await this.events.recordsInOrder(ids), ctx, () => false);
    return buildListResponse({
      key: EVENTS_REST_BASE,
      items: objects.map((o) => o.object),
      total,
      page,
      collectionUrl: `${ctx.namespaceUrl}/${EVENTS_REST_BASE}/hidden`,
      query: {},
    });
  }

  /**
   * What a list request asks for, checked (400 for bad filters, unknown terms and hidden links) and
   * turned into the archive filter: shared by the JSON list and the iCalendar feed.
   */
  async archiveFilter(
    query: ListEventsQueryDto,
    ctx: RequestContext,
  ): Promise<{ filter: EventArchiveFilter; window: DateWindow | undefined }> {
    const problems: Record<string, string> = {};
    if ((query.geoloc_lat === undefined) !== (query.geoloc_lng === undefined)) {
      problems[query.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng'] = reason(
        'needs_pair',
        query.geoloc_lat === undefined ? 'geoloc_lng' : 'geoloc_lat',
      );
    }
    if (query.ticketed === true && !this.filters.takes('ticketed')) problems.ticketed = reason('not_supported');
    const now = this.siteTime.now();
    const windowResult = query.include
      ? undefined
      : resolveDateWindow(query, resolveZone(this.siteTime.zone)!, this.siteTime.instant());
    if (windowResult && !windowResult.ok)
      windowResult.invalid.forEach((name) => (problems[name] = reason('date_time')));
    if (Object.keys(problems).length > 0) throw RequestValidationError.of(problems);

    const scope = listScopeFor(ctx.user, query.status);
    if (query.post_parent !== undefined) await this.requireVisibleEvent(query.post_parent, ctx);
    // Every taxonomy on events filters alike, and so the per-term day counts serve any of them.
    const termFilters: number[][] = [];
    for (const { field, taxonomy, hierarchical } of this.eventTaxonomies.termFields()) {
      const items = linkValueOf<(number | string)[]>(query, field);
      if (!items) continue;
      termFilters.push(
        await this.termReferences.resolveForFilter(taxonomy, items, field, { withDescendants: hierarchical }),
      );
    }
    const linkFilters = [];
    for (const { definition, target } of this.links.all()) {
      const ids = linkValueOf<number[]>(query, definition.field);
      if (!ids) continue;
      await this.requireLinked(target, ids, definition.field, ctx);
      linkFilters.push({ table: definition.table, column: definition.column, ids });
    }

    const window = windowResult?.ok ? windowResult.window : undefined;
    const modifiedAfter = modifiedAfterCondition(
      EVENT_POST_TYPE.noun,
      'p.id',
      query.modified_after,
      this.siteTime.zone,
    );
    const filter = {
      scope,
      nowUtc: now.utc,
      window,
      tokens: searchTokens(query.search ?? ''),
      termFilters,
      linkFilters,
      featured: query.featured,
      include: query.include,
      parentId: query.post_parent,
      seriesId: query.series_id,
      contentVisible: contentVisibleCondition(ctx.user, 'p'),
      moduleConditions: [...(await this.filters.conditions(query, ctx)), ...(modifiedAfter ? [modifiedAfter] : [])],
    };
    return { filter, window };
  }

  /** A single read's REST answer: its stored document's text when that serves, else the event assembled. */
  async answer(
    ref: PostRef,
    password: string | undefined,
    ctx: RequestContext,
  ): Promise<SingleEventObject | PreparedRecordJson> {
    const { record, changedUtc } = await this.readable(ref, password, ctx);
    const answer = (await this.documents.single(record, ctx)) ?? (await this.objects.single(record, ctx));
    return changedUtc === undefined ? answer : rememberChangedUtc(answer, changedUtc);
  }

  /** The event as a single read finds it for the caller: the same 404, 403 and 410 as `GET /events/{id}`. */
  async readablePost(id: number, password: string | undefined, ctx: RequestContext): Promise<PostEntity> {
    return (await this.readable({ id }, password, ctx)).record.post;
  }

  /** A single read as an object, always assembled (the iCalendar export reads its fields). */
  async get(ref: PostRef, password: string | undefined, ctx: RequestContext): Promise<SingleEventObject> {
    return this.objects.single((await this.readable(ref, password, ctx)).record, ctx);
  }

  /** The event, once this caller may read it (404, 410, 401 or 403 otherwise). */
  private async readable(
    ref: PostRef,
    password: string | undefined,
    ctx: RequestContext,
  ): Promise<{ record: EventRecord; changedUtc?: string | null }> {
    const { post, details: eventDetails, changedUtc, document } = await this.findEvent(ref, ctx.dialect);
    if (post.status === 'trash') throw new DomainError('event_no_longer_available');
    if (!isPublic(post.status, post.dateUtc, this.siteTime.now().utc) && !postPolicy.canReadNonPublic(ctx.user, post)) {
      throw postErrors.notAccessible(EVENT_POST_TYPE);
    }
    const passwordHash = post.passwordHash;
    if (passwordHash && !postPolicy.canEdit(ctx.user, post)) {
      if (!password || !(await this.passwords.matches({ id: post.id, passwordHash }, password, ctx.clientAddress)))
        throw new DomainError('event_password_protected');
    }
    return { record: { post, details: eventDetails, document }, changedUtc };
  }

  private async requireVisibleEvent(id: number, ctx: RequestContext): Promise<void> {
    const post = await this.records.findVisible(id, ctx.user);
    if (!post) throw RequestValidationError.of({ post_parent: reason('unknown_id') });
    if (post.type !== CALENDAR_POST_TYPES.event) throw new DomainError('invalid_event_id', { args: { id } });
  }

  /** A filter's venue or organizer ids: hidden ones answer like unknown ones. */
  private async requireLinked(
    service: EventLinkTarget,
    ids: number[],
    param: string,
    ctx: RequestContext,
  ): Promise<void> {
    const unknown = await service.notVisible(ids, ctx.user);
    if (unknown.length > 0) throw RequestValidationError.of({ [param]: reason('unknown_ids', unknown.join(', ')) });
  }

  /**
   * The event and, when the read learnt it (by id), when it last changed (undefined: not known). An id naming a
   * post of another type is 400 `rest-invalid-event-id`, not 404.
   */
  private async findEvent(ref: PostRef, dialect: Dialect): Promise<EventRecord & { changedUtc?: string | null }> {
    const byId = 'id' in ref ? await this.events.findAnyWithDetails(ref.id, dialect) : undefined;
    const found = byId ?? (byId === undefined ? await this.bySlug(ref) : null);
    if (!found) throw postErrors.notFound(EVENT_POST_TYPE);
    const { post, details } = found;
    if (post.type !== CALENDAR_POST_TYPES.event || !details) {
      throw new DomainError('invalid_event_id', { args: { id: post.id } });
    }
    return { post, details, ...(byId ? { changedUtc: byId.changedUtc, document: byId.document } : {}) };
  }

  private async bySlug(ref: PostRef): Promise<{ post: PostEntity; details: EventDetailsEntity | null } | null> {
    const post = await this.records.find(EVENT_POST_TYPE, ref);
    return post ? { post, details: (await this.events.detailsOf([post.id])).get(post.id) ?? null } : null;
  }
}
