import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-user';
import { SiteTime } from '../../common/dates/site-time';
import { DomainError } from '../../common/errors/domain-error';
import type { RequestContext } from '../../common/http/request-context';
import { validateNested } from '../../common/validation/nested';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { AppConfig } from '../../config/app-config';
import { WriteTransactions } from '../../database/write-transactions';
import { postFieldsInput } from '../../core/posts/dto/post-fields.dto';
import { postErrors } from '../../core/posts/post-errors';
import { PostRecordsService } from '../../core/posts/post-records.service';
import type { PostRef } from '../../core/posts/post-ref';
import type { PostEntity } from '../../core/posts/post.entity';
import { TaxonomyRegistry } from '../../core/terms/taxonomy.registry';
import { TermReferencesService } from '../../core/terms/term-references.service';
import { TermRelationshipsService } from '../../core/terms/term-relationships.service';
import { CALENDAR_POST_TYPES, CALENDAR_TAXONOMIES } from '../calendar-post-types';
import type { CreateEventDto } from './dto/create-event.dto';
import type { UpdateEventDto } from './dto/update-event.dto';
import { EventDetailsEntity } from './event-details.entity';
import { type EventObject } from './event.mapper';
import { EVENT_POST_TYPE } from './event.post-type';
import { applyCost, eventDatesOf } from './event-details-input';
import { EventObjectsService } from './event-objects.service';
import { EventsRepository } from './events.repository';
import { EventsQueryService } from './events-query.service';
import { ConditionalWrites } from '../../core/changes/conditional-writes';
import type { EventLinkTarget } from './links/event-link';
import { EventLinkRegistry } from './links/event-links.module';
import { EventFieldRegistry } from './links/event-field';
import { EventTaxonomyRegistry } from './taxonomies/event-taxonomy';
import { linkValueOf, type LinkedItems } from './links/link-values';
import { DatabaseContext } from '../../database/database-context';

/** An item of a link field: an id the client named, or an inline object to find or create. */
type LinkItem = { id: number; inline?: undefined } | { inline: object };

/** Event writes (behaviour.md §6): create, update and delete, each in one transaction with its links. */
@Injectable()
export class EventWritesService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly events: EventsRepository,
    private readonly objects: EventObjectsService,
    private readonly records: PostRecordsService,
    private readonly relationships: TermRelationshipsService,
    private readonly termReferences: TermReferencesService,
    private readonly taxonomies: TaxonomyRegistry,
    private readonly links: EventLinkRegistry,
    private readonly siteTime: SiteTime,
    private readonly config: AppConfig,
    private readonly reads: EventsQueryService,
    private readonly conditional: ConditionalWrites,
    private readonly fields: EventFieldRegistry,
    private readonly eventTaxonomies: EventTaxonomyRegistry,
  ) {}

  async create(dto: CreateEventDto, ctx: RequestContext): Promise<EventObject> {
    const id = await this.transactions.run(async () => {
      const zoneName = dto.timezone?.trim() || this.siteTime.zone;
      const dates = eventDatesOf({
        start: dto.start_date,
        end: dto.end_date,
        zoneName,
        allDay: dto.all_day ?? false,
      });
      const parentId = await this.parentFor(dto.post_parent, undefined, ctx.user);
      const post = await this.records.create(
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
      applyCost(details, dto.cost ?? '', this.config.defaultCurrency);
      await this.db.insertOnly(EventDetailsEntity, details);
      await this.writeLinks(post, dto, ctx.user, { created: true });
      return post.id;
    });
    return this.objects.afterWrite(id, ctx);
  }

  async update(ref: PostRef, dto: UpdateEventDto, ctx: RequestContext): Promise<EventObject> {
    const id = await this.transactions.run(async () => {
      const post = await this.findWritableEvent(ref, ctx.user, 'edit');
      await this.assertConditions(post, ctx);
      const details = (await this.events.detailsOf([post.id])).get(post.id);
      if (!details) throw postErrors.notFound(EVENT_POST_TYPE);
      const detailsBefore = { ...details };
      const parentId = await this.parentFor(dto.post_parent, post.id, ctx.user);
      await this.records.update(
        EVENT_POST_TYPE,
        post,
        { ...this.postInput(dto), title: dto.title, parentId },
        ctx.user,
      );
      if ([dto.start_date, dto.end_date, dto.timezone, dto.all_day].some((v) => v !== undefined)) {
        const zoneName = dto.timezone?.trim() || details.timezone;
        const allDay = dto.all_day ?? details.allDay;
        Object.assign(details, {
          ...eventDatesOf({ start: dto.start_date, end: dto.end_date, zoneName, allDay, stored: details }),
          timezone: zoneName,
          allDay,
        });
      }
      if (dto.cost !== undefined) applyCost(details, dto.cost, this.config.defaultCurrency);
      if (dto.website !== undefined) details.website = dto.website.trim();
      if (dto.show_map !== undefined) details.showMap = dto.show_map;
      if (dto.show_map_link !== undefined) details.showMapLink = dto.show_map_link;
      if (dto.hide_from_listings !== undefined) details.hideFromListings = dto.hide_from_listings;
      if (dto.sticky !== undefined) details.sticky = dto.sticky;
      if (dto.featured !== undefined) details.featured = dto.featured;
      await this.db.updateRow(EventDetailsEntity, details, detailsBefore);
      await this.writeLinks(post, dto, ctx.user);
      return post.id;
    });
    return this.objects.afterWrite(id, ctx);
  }

  /** Trash (keeping links, so the event can come back), or with `force` delete for good. */
  delete(ref: PostRef, force: boolean, ctx: RequestContext): Promise<EventObject> {
    return this.transactions.run(async () => {
      const post = await this.findWritableEvent(ref, ctx.user, 'delete');
      await this.assertConditions(post, ctx);
      if (force) {
        const [before] = await this.objects.toObjects([post], ctx, () => true);
        await this.records.destroy(EVENT_POST_TYPE, post, ctx.user);
        return before.object;
      }
      const trashed = await this.records.trash(EVENT_POST_TYPE, post);
      const [after] = await this.objects.toObjects([trashed], ctx, () => true);
      return after.object;
    });
  }

  /** `If-Match` / `If-Unmodified-Since` against the event as the caller's GET shows it. */
  private assertConditions(post: PostEntity, ctx: RequestContext): Promise<void> {
    return this.conditional.assert(ctx, {
      resource: EVENT_POST_TYPE.noun,
      id: post.id,
      modifiedUtc: post.modifiedUtc,
      representation: () => this.reads.answer({ id: post.id }, undefined, ctx),
    });
  }

  private postInput(dto: UpdateEventDto) {
    return { ...postFieldsInput(dto), excerpt: dto.excerpt, slug: dto.slug, password: dto.password };
  }

  /**
   * Terms, declared links and modules' write fields of a write; every nested item is checked before anything
   * stays.
   */
  private async writeLinks(
    post: PostEntity,
    dto: UpdateEventDto,
    user: AuthUser | null,
    options: { created?: boolean } = {},
  ): Promise<void> {
    const eventId = post.id;
    const requests = [
      ['categories', CALENDAR_TAXONOMIES.category],
      ['tags', CALENDAR_TAXONOMIES.tag],
      ...this.eventTaxonomies.all().map((d) => [d.field, d.taxonomy.taxonomy] as const),
    ].flatMap(([param, taxonomy]) => {
      const items = linkValueOf<(number | string)[]>(dto, param);
      return items === undefined ? [] : [{ taxonomy: this.taxonomies.get(taxonomy), items, param }];
    });
    const resolved = requests.length === 0 ? [] : await this.termReferences.resolveForWrite(requests);
    const terms = new Map(requests.map((r, index) => [r.taxonomy.taxonomy, resolved[index]]));
    await this.relationships.setPostTermsOf(post, terms, options);
    const linkWrites: { target: EventLinkTarget; param: string; items: LinkItem[] }[] = [];
    for (const { definition, target } of this.links.all()) {
      const items = linkValueOf<LinkedItems>(dto, definition.field);
      if (items === undefined) continue;
      linkWrites.push({
        target,
        param: definition.field,
        items: await this.linkItems(items, definition.field, target),
      });
    }
    // Every inline object's name locked in one statement, in bucket order, before any is looked up.
    await this.db.lockForWrite(
      linkWrites.flatMap(({ target, items }) =>
        items.flatMap((i) => (i.inline ? [target.writeLockKeyOf(i.inline)] : [])),
      ),
    );
    for (const { target, param, items } of linkWrites) {
      await target.setEventLinks(eventId, await this.linkedIds(items, param, target, user), options);
    }
    for (const field of this.fields.all()) {
      const value = linkValueOf<unknown>(dto, field.name);
      if (value !== undefined && field.save) await field.save(eventId, value, { user, created: !!options.created });
    }
  }

  /** A link field's items, each an id the client named or a validated inline object. */
  private async linkItems(items: LinkedItems, param: string, service: EventLinkTarget): Promise<LinkItem[]> {
    const checked: LinkItem[] = [];
    for (const [index, item] of items.entries()) {
      const path = items.length > 1 ? `${param}[${index}]` : param;
      if (typeof item === 'number') {
        checked.push({ id: item });
      } else if (Object.keys(item).length === 1 && 'id' in item) {
        const id = Number(item.id);
        if (!Number.isInteger(id) || id <= 0) throw RequestValidationError.of({ [`${path}.id`]: reason('integer') });
        checked.push({ id });
      } else {
        checked.push({ inline: await validateNested(service.createDto, item, path) });
      }
    }
    return checked;
  }

  private async linkedIds(
    items: LinkItem[],
    param: string,
    service: EventLinkTarget,
    user: AuthUser | null,
  ): Promise<number[]> {
    const ids: number[] = [];
    // Only ids the client named are checked: those of inline objects were just found or created as this type.
    const named: number[] = [];
    for (const item of items) {
      if (item.inline) {
        ids.push(await service.createOrReuse(item.inline, user));
      } else {
        ids.push(item.id);
        named.push(item.id);
      }
    }
    const wrong = named.length === 0 ? [] : await service.notLinkable(named, user);
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
    value: number | undefined,
    selfId: number | undefined,
    user: AuthUser | null,
  ): Promise<number | null | undefined> {
    if (value === undefined) return undefined;
    if (value === 0) return null;
    await this.requireEvent(value, 'post_parent', user);
    if (selfId !== undefined && (value === selfId || (await this.events.descendantIds(selfId)).has(value))) {
      throw RequestValidationError.of({ post_parent: reason('parent_cycle') });
    }
    return value;
  }

  /** An id that must be an event: 400 when it is another post type, or nothing at all. */
  private async requireEvent(id: number, param: string, user: AuthUser | null): Promise<void> {
    // A post the caller may not read is answered as if it did not exist (no existence oracle).
    const post = await this.records.findVisible(id, user);
    if (!post) throw RequestValidationError.of({ [param]: reason('unknown_id') });
    if (post.type !== CALENDAR_POST_TYPES.event) throw new DomainError('invalid_event_id', { args: { id } });
  }

  /**
   * The event to change, locked (`findWritable`); when there is none, `invalid-event-id` for an id of
   * another post type rather than 404 — looked up only then, so an edit reads the row once.
   */
  private async findWritableEvent(ref: PostRef, user: AuthUser | null, action: 'edit' | 'delete'): Promise<PostEntity> {
    try {
      return await this.records.findWritable(EVENT_POST_TYPE, ref, user, action);
    } catch (error) {
      // Only "not found" asks; any other error (a deadlock to retry) goes on as it came.
      if (error instanceof DomainError && error.key === 'post_not_found') await this.assertEventId(ref);
      throw error;
    }
  }

  /** One lookup: by id it also tells "not an event" (400) from "nothing there" (404). */
  private async assertEventId(ref: PostRef): Promise<void> {
    if (!('id' in ref)) return;
    const post = await this.events.findAnyPost(ref.id);
    if (post && post.type !== CALENDAR_POST_TYPES.event)
      throw new DomainError('invalid_event_id', { args: { id: ref.id } });
  }
}
