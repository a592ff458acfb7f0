import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../../auth/auth-user';
import { DomainError } from '../../../common/errors/domain-error';
import { validateNested } from '../../../common/validation/nested';
import { RequestValidationError } from '../../../common/validation/request-validation.error';
import { reason } from '../../../common/validation/validation-messages';
import { AppConfig } from '../../../config/app-config';
import { postFieldsInput } from '../../../core/posts/dto/post-fields.dto';
import { PostRecordsService } from '../../../core/posts/post-records.service';
import type { PostWriteInput } from '../../../core/posts/post-write-input';
import type { PostEntity } from '../../../core/posts/post.entity';
import { TaxonomyRegistry } from '../../../core/terms/taxonomy.registry';
import { TermReferencesService } from '../../../core/terms/term-references.service';
import { TermRelationshipsService } from '../../../core/terms/term-relationships.service';
import { DatabaseContext } from '../../../database/database-context';
import { CALENDAR_POST_TYPES } from '../../calendar-post-types';
import type { UpdateEventDto } from '../rest/dto/update-event.dto';
import type { EventDates } from './event-dates';
import type { EventApplyOptions } from './event-apply-options';
import { EventDetailsEntity } from './event-details.entity';
import { applyCost, eventDatesOf } from './event-details-input';
import { EVENT_POST_TYPE } from './event.post-type';
import { EventsRepository } from '../archive/events.repository';
import type { EventLinkTarget } from '../extension-points/links/event-link';
import { EventLinkRegistry } from '../extension-points/links/event-links.module';
import { EventFieldRegistry } from '../extension-points/links/event-field';
import { linkValueOf, type LinkedItems } from '../extension-points/links/link-values';
import { EventTaxonomyRegistry } from '../extension-points/taxonomies/event-taxonomy';

/** An item of a link field: an id the client named, or an inline object to find or create. */
type LinkItem = { id: number; inline?: undefined } | { inline: object };

/** Where and when a new event is, and which series it belongs to. */
export interface NewEvent {
  dates: EventDates;
  zoneName: string;
  allDay: boolean;
  occurrence?: OccurrenceOf;
}

/** A series' part of an event's details: null for a single event. */
export interface OccurrenceOf {
  seriesId: number;
  occurrenceLocal: string;
}

/**
 * One event's rows written from a write's fields: the post, its details, its terms, links and modules' write
 * fields. The single writes and the series writes (which write many events alike) both go through here.
 */
@Injectable()
export class EventRecordWriter {
  constructor(
    private readonly db: DatabaseContext,
    private readonly events: EventsRepository,
    private readonly records: PostRecordsService,
    private readonly relationships: TermRelationshipsService,
    private readonly termReferences: TermReferencesService,
    private readonly taxonomies: TaxonomyRegistry,
    private readonly links: EventLinkRegistry,
    private readonly config: AppConfig,
    private readonly fields: EventFieldRegistry,
    private readonly eventTaxonomies: EventTaxonomyRegistry,
  ) {}

  /**
   * A new event from `dto` at `dates`. `post` overrides the post fields (an occurrence takes its first
   * one's status, author, password and image as they are stored, and its own slug).
   */
  async insert(
    dto: UpdateEventDto & { title: string },
    event: NewEvent,
    user: AuthUser | null,
    post: PostWriteInput = {},
  ): Promise<PostEntity> {
    const [created] = await this.insertMany(dto, [{ ...event, post }], user);
    return created;
  }

  /**
   * New events alike but for their dates and post overrides (a series' occurrences), written together: each
   * table's rows a few statements at a time, the write's terms and links resolved once for all of them.
   */
  async insertMany(
    dto: UpdateEventDto & { title: string },
    events: readonly (NewEvent & { post?: PostWriteInput })[],
    user: AuthUser | null,
  ): Promise<PostEntity[]> {
    if (events.length === 0) return [];
    const parentId = await this.parentFor(dto.post_parent, undefined, user);
    const shared = { ...this.postInput(dto), title: dto.title, parentId: parentId ?? null };
    const created = await this.records.createMany(
      EVENT_POST_TYPE,
      events.map((event) => ({ ...shared, ...event.post })),
      user,
    );
    const details = events.map((event, index) => {
      const row = Object.assign(new EventDetailsEntity(), {
        postId: created[index].id,
        ...event.dates,
        timezone: event.zoneName,
        allDay: event.allDay,
        website: dto.website?.trim() ?? '',
        showMap: dto.show_map ?? true,
        showMapLink: dto.show_map_link ?? true,
        hideFromListings: dto.hide_from_listings ?? false,
        sticky: dto.sticky ?? false,
        featured: dto.featured ?? false,
        seriesId: event.occurrence?.seriesId ?? null,
        occurrenceLocal: event.occurrence?.occurrenceLocal ?? null,
        detached: false,
      });
      applyCost(row, dto.cost ?? '', this.config.defaultCurrency);
      return row;
    });
    await this.db.insertOnly(EventDetailsEntity, details);
    await this.writeLinks(created, dto, user, { created: true });
    return created;
  }

  /**
   * `dto` applied to a stored event (under its row lock). `dates`, when given, are its new start and end
   * (a series edit moves occurrences itself); else the dto's dates are read against the stored ones.
   */
  async apply(
    post: PostEntity,
    details: EventDetailsEntity,
    dto: UpdateEventDto,
    user: AuthUser | null,
    options: EventApplyOptions = {},
  ): Promise<void> {
    const detailsBefore = { ...details };
    const parentId = await this.parentFor(dto.post_parent, post.id, user);
    await this.records.update(
      EVENT_POST_TYPE,
      post,
      { ...this.postInput(dto), title: dto.title, parentId, ...options.post },
      user,
    );
    const zoneName = dto.timezone?.trim() || details.timezone;
    const allDay = dto.all_day ?? details.allDay;
    if (options.dates) Object.assign(details, options.dates, { timezone: zoneName, allDay });
    else if ([dto.start_date, dto.end_date, dto.timezone, dto.all_day].some((v) => v !== undefined)) {
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
    if (options.detach && details.seriesId !== null) details.detached = true;
    if (options.occurrenceLocal !== undefined) details.occurrenceLocal = options.occurrenceLocal;
    await this.db.updateRow(EventDetailsEntity, details, detailsBefore);
    if (options.links !== false) await this.writeLinks([post], dto, user);
  }

  private postInput(dto: UpdateEventDto) {
    return { ...postFieldsInput(dto), excerpt: dto.excerpt, slug: dto.slug, password: dto.password };
  }

  /**
   * Terms, declared links and modules' write fields of a write, for each of `posts` alike; every nested item
   * is checked (and an inline object made) once, before anything stays. `created`: the posts were inserted
   * in this transaction, so they have nothing to replace, and many are written in a few statements.
   */
  async writeLinks(
    posts: readonly PostEntity[],
    dto: UpdateEventDto,
    user: AuthUser | null,
    options: { created?: boolean } = {},
  ): Promise<void> {
    const created = !!options.created;
    const requests = this.eventTaxonomies.termFields().flatMap(({ field: param, taxonomy }) => {
      const items = linkValueOf<(number | string)[]>(dto, param);
      return items === undefined ? [] : [{ taxonomy: this.taxonomies.get(taxonomy), items, param }];
    });
    const resolved = requests.length === 0 ? [] : await this.termReferences.resolveForWrite(requests);
    const terms = new Map(requests.map((r, index) => [r.taxonomy.taxonomy, resolved[index]]));
    if (created) await this.relationships.setNewPostsTerms(posts, terms);
    else for (const post of posts) await this.relationships.setPostTermsOf(post, terms);
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
      const ids = await this.linkedIds(items, param, target, user);
      if (created)
        await target.linkNewEvents(
          posts.map((p) => p.id),
          ids,
        );
      else for (const post of posts) await target.setEventLinks(post.id, ids);
    }
    for (const field of this.fields.all()) {
      const value = linkValueOf<unknown>(dto, field.name);
      if (value === undefined || !field.save) continue;
      const write = { user, created };
      if (field.saveMany && posts.length > 1)
        await field.saveMany(
          posts.map((p) => p.id),
          value,
          write,
        );
      else for (const post of posts) await field.save(post.id, value, write);
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
    for (const [index, item] of items.entries()) {
      if (item.inline) {
        // Each new record is a few statements and a slug: others go first between runs of them.
        if (index > 0 && index % 20 === 0) await this.db.yieldTurn();
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
  async parentFor(
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
}
