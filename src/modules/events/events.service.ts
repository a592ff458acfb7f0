import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthUser } from '../../auth/auth-user';
import { postPolicy } from '../../auth/post-policy';
import { resolveZone } from '../../common/dates/date-input';
import { SiteTime } from '../../common/dates/site-time';
import { DomainError } from '../../common/errors/domain-error';
import type { RequestContext } from '../../common/http/request-context';
import { ListTotalsCache } from '../../common/pagination/list-totals.cache';
import {
  buildListResponse,
  isBeyondLastPage,
  resolvePageRequest,
  type ListResponse,
} from '../../common/pagination/pagination';
import { searchTokens } from '../../common/search/search-tokens';
import { validateNested } from '../../common/validation/nested';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { AppConfig } from '../../config/app-config';
import { WriteTransactions } from '../../database/write-transactions';
import { AttachmentsService } from '../../core/posts/attachments/attachments.service';
import { postFieldsInput } from '../../core/posts/dto/post-fields.dto';
import { postErrors } from '../../core/posts/post-errors';
import { listScopeFor } from '../../core/posts/post-query';
import { PostPasswords } from '../../core/posts/post-passwords';
import { PostRecordsService } from '../../core/posts/post-records.service';
import type { PostRef } from '../../core/posts/post-ref';
import { isPublic } from '../../core/posts/post-status';
import { contentVisibleCondition } from '../../core/posts/post-visibility';
import type { PostEntity } from '../../core/posts/post.entity';
import { TaxonomyRegistry } from '../../core/terms/taxonomy.registry';
import { TermReferencesService } from '../../core/terms/term-references.service';
import { TermRelationshipsService } from '../../core/terms/term-relationships.service';
import { toTermObject, type TermObject } from '../../core/terms/term.mapper';
import { CALENDAR_POST_TYPES, CALENDAR_TAXONOMIES } from '../calendar-post-types';
import type { CreateEventDto } from './dto/create-event.dto';
import type { ListEventsQueryDto } from './dto/list-events-query.dto';
import type { UpdateEventDto } from './dto/update-event.dto';
import { currencyOf } from './event-cost';
import { resolveEventDates } from './event-dates';
import { EventDetailsEntity } from './event-details.entity';
import { toEventJsonLd, toEventObject, type EventObject } from './event.mapper';
import { EVENT_POST_TYPE, EVENTS_REST_BASE } from './event.post-type';
import { resolveDateWindow } from './event-window';
import { EventsRepository } from './events.repository';
import type { EventLinkTarget } from './links/event-link';
import { EventLinkRegistry } from './links/event-links.module';
import { linkValueOf, type LinkedItems } from './links/link-values';

/** Events (behaviour.md §5–§7): reads with passwords, writes in one transaction, the filtered archive. */
@Injectable()
export class EventsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: WriteTransactions,
    private readonly events: EventsRepository,
    private readonly records: PostRecordsService,
    private readonly passwords: PostPasswords,
    private readonly attachments: AttachmentsService,
    private readonly relationships: TermRelationshipsService,
    private readonly termReferences: TermReferencesService,
    private readonly taxonomies: TaxonomyRegistry,
    private readonly links: EventLinkRegistry,
    private readonly siteTime: SiteTime,
    private readonly config: AppConfig,
    private readonly totals: ListTotalsCache,
  ) {}

  async list(query: ListEventsQueryDto, ctx: RequestContext): Promise<ListResponse> {
    const manager = this.dataSource.manager;
    const problems: Record<string, string> = {};
    if ((query.geoloc_lat === undefined) !== (query.geoloc_lng === undefined)) {
      problems[query.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng'] = reason(
        'needs_pair',
        query.geoloc_lat === undefined ? 'geoloc_lng' : 'geoloc_lat',
      );
    }
    if (query.ticketed === true) problems.ticketed = reason('not_supported');
    const now = this.siteTime.now();
    const windowResult = query.include
      ? undefined
      : resolveDateWindow(query, resolveZone(this.siteTime.zone)!, this.siteTime.instant());
    if (windowResult && !windowResult.ok)
      windowResult.invalid.forEach((name) => (problems[name] = reason('date_time')));
    if (Object.keys(problems).length > 0) throw RequestValidationError.of(problems);

    const scope = listScopeFor(ctx.user, query.status);
    if (query.post_parent !== undefined) await this.requireVisibleEvent(query.post_parent, ctx);
    const categoryIds = query.categories
      ? await this.termReferences.resolveForFilter(
          manager,
          CALENDAR_TAXONOMIES.category,
          query.categories,
          'categories',
        )
      : undefined;
    const tagIds = query.tags
      ? await this.termReferences.resolveForFilter(manager, CALENDAR_TAXONOMIES.tag, query.tags, 'tags')
      : undefined;
    const linkFilters = [];
    for (const { definition, target } of this.links.all()) {
      const ids = linkValueOf<number[]>(query, definition.field);
      if (!ids) continue;
      await this.requireLinked(manager, target, ids, definition.field, ctx);
      linkFilters.push({ table: definition.table, column: definition.column, ids });
    }

    const page = resolvePageRequest(query.page, query.per_page, this.config.maxPerPage);
    const window = windowResult?.ok ? windowResult.window : undefined;
    const filter = {
      scope,
      nowUtc: now.utc,
      window,
      tokens: searchTokens(query.search ?? ''),
      categoryIds,
      tagIds,
      linkFilters,
      featured: query.featured,
      include: query.include,
      parentId: query.post_parent,
      contentVisible: contentVisibleCondition(ctx.user, 'p'),
    };
    const totalKey = JSON.stringify([
      'events',
      { ...filter, nowUtc: undefined, contentVisible: undefined },
      ctx.user?.id,
    ]);
    const { posts, total } = await this.events.listForArchive(filter, page, this.totals.get(totalKey));
    this.totals.set(totalKey, total);
    if (isBeyondLastPage(page, total)) throw postErrors.archivePageNotFound(EVENT_POST_TYPE);
    const objects = await this.toObjects(manager, posts, ctx, () => false);
    return buildListResponse({
      key: EVENTS_REST_BASE,
      items: objects.map((o) => o.object),
      total,
      page,
      collectionUrl: `${ctx.namespaceUrl}/${EVENTS_REST_BASE}`,
      query: {
        start_date: window?.effective.start_date,
        end_date: window?.effective.end_date,
        starts_before: query.starts_before,
        starts_after: query.starts_after,
        ends_before: query.ends_before,
        ends_after: query.ends_after,
        strict_dates: query.strict_dates,
        search: query.search,
        categories: query.categories,
        tags: query.tags,
        ...Object.fromEntries(this.links.all().map(({ definition: { field } }) => [field, linkValueOf(query, field)])),
        featured: query.featured,
        status: query.status,
        include: query.include,
        post_parent: query.post_parent,
        ticketed: query.ticketed,
        geoloc: query.geoloc,
        geoloc_lat: query.geoloc_lat,
        geoloc_lng: query.geoloc_lng,
      },
    });
  }

  async get(ref: PostRef, password: string | undefined, ctx: RequestContext): Promise<EventObject> {
    const manager = this.dataSource.manager;
    const post = await this.findEvent(manager, ref);
    if (post.status === 'trash') throw new DomainError('event_no_longer_available');
    if (!isPublic(post.status, post.dateUtc, this.siteTime.now().utc) && !postPolicy.canReadNonPublic(ctx.user, post)) {
      throw postErrors.notAccessible(EVENT_POST_TYPE);
    }
    const passwordHash = post.passwordHash;
    if (passwordHash && !postPolicy.canEdit(ctx.user, post)) {
      if (!password || !(await this.passwords.matches({ id: post.id, passwordHash }, password, ctx.clientAddress)))
        throw new DomainError('event_password_protected');
    }
    const [{ object, details, linked }] = await this.toObjects(manager, [post], ctx, () => true);
    const linkedJsonLd: Parameters<typeof toEventJsonLd>[2] = {};
    for (const { definition, target } of this.links.all()) {
      const nodes = (linked.get(definition.field) ?? []).map((o) => target.jsonLd(o));
      linkedJsonLd[definition.jsonLdProperty] = definition.cardinality === 'one' ? nodes[0] : nodes;
    }
    return { ...object, json_ld: toEventJsonLd(object, details, linkedJsonLd) };
  }

  async create(dto: CreateEventDto, ctx: RequestContext): Promise<EventObject> {
    const id = await this.transactions.run(async (manager) => {
      const zoneName = dto.timezone?.trim() || this.siteTime.zone;
      const dates = this.eventDates({
        start: dto.start_date,
        end: dto.end_date,
        zoneName,
        allDay: dto.all_day ?? false,
      });
      const parentId = await this.parentFor(manager, dto.post_parent, undefined);
      const post = await this.records.create(
        manager,
        EVENT_POST_TYPE,
        { ...this.postInput(dto), title: dto.title, parentId: parentId ?? null },
        ctx.user,
      );
      const details = Object.assign(new EventDetailsEntity(), {
        postId: post.id,
        ...dates,
        timezone: zoneName,
        allDay: dto.all_day ?? false,
        website: dto.website?.trim() ?? '',
        showMap: dto.show_map ?? true,
        showMapLink: dto.show_map_link ?? true,
        hideFromListings: dto.hide_from_listings ?? false,
        sticky: dto.sticky ?? false,
        featured: dto.featured ?? false,
      });
      this.applyCost(details, dto.cost ?? '');
      await manager.insert(EventDetailsEntity, details);
      await this.writeLinks(manager, post, dto, ctx.user);
      return post.id;
    });
    return this.objectAfterWrite(id, ctx);
  }

  async update(ref: PostRef, dto: UpdateEventDto, ctx: RequestContext): Promise<EventObject> {
    const id = await this.transactions.run(async (manager) => {
      await this.assertEventId(manager, ref);
      const post = await this.records.findWritable(manager, EVENT_POST_TYPE, ref, ctx.user, 'edit');
      const details = (await this.events.detailsOf(manager, [post.id])).get(post.id);
      if (!details) throw postErrors.notFound(EVENT_POST_TYPE);
      const parentId = await this.parentFor(manager, dto.post_parent, post.id);
      await this.records.update(
        manager,
        EVENT_POST_TYPE,
        post,
        { ...this.postInput(dto), title: dto.title, parentId },
        ctx.user,
      );
      if ([dto.start_date, dto.end_date, dto.timezone, dto.all_day].some((v) => v !== undefined)) {
        const zoneName = dto.timezone?.trim() || details.timezone;
        const allDay = dto.all_day ?? details.allDay;
        Object.assign(details, {
          ...this.eventDates({ start: dto.start_date, end: dto.end_date, zoneName, allDay, stored: details }),
          timezone: zoneName,
          allDay,
        });
      }
      if (dto.cost !== undefined) this.applyCost(details, dto.cost);
      if (dto.website !== undefined) details.website = dto.website.trim();
      if (dto.show_map !== undefined) details.showMap = dto.show_map;
      if (dto.show_map_link !== undefined) details.showMapLink = dto.show_map_link;
      if (dto.hide_from_listings !== undefined) details.hideFromListings = dto.hide_from_listings;
      if (dto.sticky !== undefined) details.sticky = dto.sticky;
      if (dto.featured !== undefined) details.featured = dto.featured;
      await manager.save(details);
      await this.writeLinks(manager, post, dto, ctx.user);
      return post.id;
    });
    return this.objectAfterWrite(id, ctx);
  }

  /** Trash (keeping links, so the event can come back), or with `force` delete for good. */
  delete(ref: PostRef, force: boolean, ctx: RequestContext): Promise<EventObject> {
    return this.transactions.run(async (manager) => {
      await this.assertEventId(manager, ref);
      const post = await this.records.findWritable(manager, EVENT_POST_TYPE, ref, ctx.user, 'delete');
      if (force) {
        const [before] = await this.toObjects(manager, [post], ctx, () => true);
        await this.records.destroy(manager, post, ctx.user);
        return before.object;
      }
      const trashed = await this.records.trash(manager, EVENT_POST_TYPE, post);
      const [after] = await this.toObjects(manager, [trashed], ctx, () => true);
      return after.object;
    });
  }

  private postInput(dto: UpdateEventDto) {
    return { ...postFieldsInput(dto), excerpt: dto.excerpt, slug: dto.slug, password: dto.password };
  }

  private eventDates(input: {
    start: unknown;
    end: unknown;
    zoneName: string;
    allDay: boolean;
    stored?: EventDetailsEntity;
  }): Pick<EventDetailsEntity, 'startLocal' | 'endLocal' | 'startUtc' | 'endUtc'> {
    const zone = resolveZone(input.zoneName);
    if (!zone) throw RequestValidationError.of({ timezone: reason('time_zone') });
    const result = resolveEventDates({
      start: input.start,
      end: input.end,
      zone,
      allDay: input.allDay,
      storedStartLocal: input.stored?.startLocal,
      storedEndLocal: input.stored?.endLocal,
    });
    if (!result.ok) {
      throw RequestValidationError.of(
        Object.fromEntries(Object.entries(result.problems).map(([name, problem]) => [name, reason(problem)])),
      );
    }
    return result.dates;
  }

  private applyCost(details: EventDetailsEntity, cost: string): void {
    const currency = currencyOf(cost, this.config.defaultCurrency);
    details.cost = cost.trim();
    details.currencySymbol = currency.symbol;
    details.currencyCode = currency.code;
    details.currencyPosition = currency.position;
  }

  /** Terms, venues and organizers of a write; every nested item is checked before anything stays. */
  private async writeLinks(
    manager: EntityManager,
    post: PostEntity,
    dto: UpdateEventDto,
    user: AuthUser | null,
  ): Promise<void> {
    const eventId = post.id;
    for (const [param, taxonomy] of [
      ['categories', CALENDAR_TAXONOMIES.category],
      ['tags', CALENDAR_TAXONOMIES.tag],
    ] as const) {
      const items = dto[param];
      if (items === undefined) continue;
      const ids = await this.termReferences.resolveForWrite(manager, this.taxonomies.get(taxonomy), items, param);
      await this.relationships.setPostTerms(manager, post, taxonomy, ids);
    }
    for (const { definition, target } of this.links.all()) {
      const items = linkValueOf<LinkedItems>(dto, definition.field);
      if (items === undefined) continue;
      const ids = await this.linkedIds(manager, items, definition.field, target, user);
      await target.setEventLinks(manager, eventId, ids);
    }
  }

  private async linkedIds(
    manager: EntityManager,
    items: LinkedItems,
    param: string,
    service: EventLinkTarget,
    user: AuthUser | null,
  ): Promise<number[]> {
    const ids: number[] = [];
    for (const [index, item] of items.entries()) {
      const path = items.length > 1 ? `${param}[${index}]` : param;
      if (typeof item === 'number') {
        ids.push(item);
      } else if (Object.keys(item).length === 1 && 'id' in item) {
        const id = Number(item.id);
        if (!Number.isInteger(id) || id <= 0) throw RequestValidationError.of({ [`${path}.id`]: reason('integer') });
        ids.push(id);
      } else {
        ids.push(await service.createOrReuse(manager, await validateNested(service.createDto, item, path), user));
      }
    }
    const wrong = await service.notOfType(manager, ids);
    if (wrong.length > 0) {
      throw new DomainError('invalid_linked_post_id', {
        args: { id: wrong[0], label: service.postType.label },
        data: { params: { [param]: wrong } },
      });
    }
    return ids;
  }

  /** `post_parent`: an existing event that is not the event itself or below it; 0 detaches. */
  private async parentFor(
    manager: EntityManager,
    value: number | undefined,
    selfId: number | undefined,
  ): Promise<number | null | undefined> {
    if (value === undefined) return undefined;
    if (value === 0) return null;
    await this.requireEvent(manager, value, 'post_parent');
    if (selfId !== undefined && (value === selfId || (await this.events.descendantIds(manager, selfId)).has(value))) {
      throw RequestValidationError.of({ post_parent: reason('parent_cycle') });
    }
    return value;
  }

  /** An id that must be an event: 400 when it is another post type, or nothing at all. */
  private async requireEvent(manager: EntityManager, id: number, param: string): Promise<void> {
    const post = await this.events.findAnyPost(manager, id);
    if (!post) throw RequestValidationError.of({ [param]: reason('unknown_id') });
    if (post.type !== CALENDAR_POST_TYPES.event) throw new DomainError('invalid_event_id', { args: { id } });
  }

  /** A filter's event id: one the caller may see, else 400 as if unknown (no existence oracle). */
  private async requireVisibleEvent(id: number, ctx: RequestContext): Promise<void> {
    const post = await this.records.findVisible(id, ctx.user);
    if (!post) throw RequestValidationError.of({ post_parent: reason('unknown_id') });
    if (post.type !== CALENDAR_POST_TYPES.event) throw new DomainError('invalid_event_id', { args: { id } });
  }

  /** A filter's venue or organizer ids: hidden ones answer like unknown ones. */
  private async requireLinked(
    manager: EntityManager,
    service: EventLinkTarget,
    ids: number[],
    param: string,
    ctx: RequestContext,
  ): Promise<void> {
    const unknown = await service.notVisible(manager, ids, ctx.user);
    if (unknown.length > 0) throw RequestValidationError.of({ [param]: reason('unknown_ids', unknown.join(', ')) });
  }

  /** An event route's id naming a post of another type is 400 `rest-invalid-event-id`, not 404. */
  private async assertEventId(manager: EntityManager, ref: PostRef): Promise<void> {
    if (!('id' in ref)) return;
    const post = await this.events.findAnyPost(manager, ref.id);
    if (post && post.type !== CALENDAR_POST_TYPES.event)
      throw new DomainError('invalid_event_id', { args: { id: ref.id } });
  }

  /** One lookup: by id it also tells "not an event" (400) from "nothing there" (404). */
  private async findEvent(manager: EntityManager, ref: PostRef): Promise<PostEntity> {
    const post =
      'id' in ref
        ? await this.events.findAnyPost(manager, ref.id)
        : await this.records.find(EVENT_POST_TYPE, ref, manager);
    if (!post) throw postErrors.notFound(EVENT_POST_TYPE);
    if (post.type !== CALENDAR_POST_TYPES.event) throw new DomainError('invalid_event_id', { args: { id: post.id } });
    return post;
  }

  private async objectAfterWrite(id: number, ctx: RequestContext): Promise<EventObject> {
    const post = await this.records.find(EVENT_POST_TYPE, { id });
    if (!post) throw postErrors.notFound(EVENT_POST_TYPE);
    const [{ object }] = await this.toObjects(this.dataSource.manager, [post], ctx, () => true);
    return object;
  }

  /**
   * Event objects for many posts in a fixed number of queries: details, terms, each link's records and
   * images are each loaded once for the whole page. `passwordGiven` tells which protected events the
   * caller has unlocked; editors of an event always see it whole.
   */
  private async toObjects(
    manager: EntityManager,
    posts: PostEntity[],
    ctx: RequestContext,
    passwordGiven: (post: PostEntity) => boolean,
  ) {
    const ids = posts.map((p) => p.id);
    const details = await this.events.detailsOf(manager, ids);
    const terms = await this.relationships.termsOfPosts(manager, ids, [
      CALENDAR_TAXONOMIES.category,
      CALENDAR_TAXONOMIES.tag,
    ]);
    const linkedByField = new Map<string, Map<number, object[]>>();
    for (const { definition, target } of this.links.all()) {
      linkedByField.set(definition.field, await target.objectsOfEvents(manager, ids, ctx));
    }
    const [images] = [
      await this.attachments.findMany(
        manager,
        posts.map((p) => p.featuredImageId).filter((id): id is number => id !== null),
      ),
    ];
    const nowUtc = this.siteTime.now().utc;
    const categoryTaxonomy = this.taxonomies.get(CALENDAR_TAXONOMIES.category);
    const tagTaxonomy = this.taxonomies.get(CALENDAR_TAXONOMIES.tag);
    return posts.map((post) => {
      const detail = details.get(post.id);
      if (!detail) throw new Error(`event ${post.id} has no details row`);
      const postTerms = terms.get(post.id) ?? [];
      const termObjects = (taxonomy: typeof categoryTaxonomy): TermObject[] =>
        postTerms
          .filter((t) => t.taxonomy === taxonomy.taxonomy)
          .map((t) => toTermObject(t, taxonomy, ctx.namespaceUrl));
      const linked = new Map(
        this.links.all().map(({ definition: { field } }) => [field, linkedByField.get(field)?.get(post.id) ?? []]),
      );
      const blank = post.passwordHash !== null && !passwordGiven(post) && !postPolicy.canEdit(ctx.user, post);
      const object = toEventObject(
        post,
        detail,
        {
          image: post.featuredImageId === null ? undefined : images.get(post.featuredImageId),
          categories: termObjects(categoryTaxonomy),
          tags: termObjects(tagTaxonomy),
          links: this.links.all().map(({ definition }) => ({
            field: definition.field,
            cardinality: definition.cardinality,
            objects: linked.get(definition.field) ?? [],
          })),
        },
        ctx,
        nowUtc,
        blank,
      );
      return { object, details: detail, linked };
    });
  }
}
