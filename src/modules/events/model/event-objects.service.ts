import { Injectable } from '@nestjs/common';
import { postPolicy } from '../../../auth/post-policy';
import { SiteTime } from '../../../common/dates/site-time';
import type { RequestContext } from '../../../common/http/request-context';
import { AttachmentsService } from '../../../core/posts/attachments/attachments.service';
import { postErrors } from '../../../core/posts/post-errors';
import type { PostEntity } from '../../../core/posts/post.entity';
import { TaxonomyRegistry, type TaxonomyDefinition } from '../../../core/terms/taxonomy.registry';
import { toTermObject, type TermObject } from '../../../core/terms/term.mapper';
import { CALENDAR_TAXONOMIES } from '../../calendar-post-types';
import { byTermName, toEventJsonLd, toEventObject, type EventObject } from './event.mapper';
import { EVENT_POST_TYPE } from './event.post-type';
import { EventsRepository } from '../archive/events.repository';
import type { EventRecord } from './event-record';
import { EventLinkRegistry } from '../extension-points/links/event-links.module';
import { EventFieldRegistry } from '../extension-points/links/event-field';
import { EventTaxonomyRegistry } from '../extension-points/taxonomies/event-taxonomy';
import { LinkedRecordsReader } from '../extension-points/linked/linked-records.reader';
import type { EventDetailsEntity } from './event-details.entity';
import { SeriesRepository } from '../recurrence/series.repository';
import { countPlaceholder } from '../derived/documents/event-document-template';

/** What a single read (and a write) answers: the event object and its schema.org description. */
export type SingleEventObject = EventObject & { json_ld: Record<string, unknown> };

/** An event object with what it was built from. */
export interface BuiltEvent {
  object: EventObject;
  details: EventDetailsEntity;
  /** Each link field's objects, as the caller may see them. */
  linked: Map<string, object[]>;
  /** Whether the caller saw every record the event links to (none hidden from them). */
  complete: boolean;
  /** Until when (UTC) the modules' fields stay as built; null when only a write changes them. */
  validUntilUtc: string | null;
}

/** Event objects (behaviour.md §5) for one or many posts, in a fixed number of queries per page. */
@Injectable()
export class EventObjectsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly attachments: AttachmentsService,
    private readonly taxonomies: TaxonomyRegistry,
    private readonly links: EventLinkRegistry,
    private readonly siteTime: SiteTime,
    private readonly linkedRecords: LinkedRecordsReader,
    private readonly fields: EventFieldRegistry,
    private readonly eventTaxonomies: EventTaxonomyRegistry,
    private readonly series: SeriesRepository,
  ) {}

  /**
   * The event as the caller's single GET shows it after a write (the write's transaction has committed):
   * the same representation, so the answer's ETag is the one the next GET gives and serves an If-Match.
   */
  async afterWrite(id: number, ctx: RequestContext): Promise<SingleEventObject> {
    const found = await this.events.findAnyWithDetails(id);
    if (!found?.details || found.post.type !== EVENT_POST_TYPE.type) throw postErrors.notFound(EVENT_POST_TYPE);
    return this.single({ post: found.post, details: found.details }, ctx);
  }

  /** A single read's representation: the event object with its schema.org `json_ld` (behaviour.md §5). */
  async single(record: EventRecord, ctx: RequestContext): Promise<SingleEventObject> {
    const [built] = await this.fromRecords([record], ctx, () => true);
    return { ...built.object, json_ld: this.jsonLdOf(built) };
  }

  /** An event's schema.org description, from what {@link fromRecords} built. */
  jsonLdOf({ object, linked }: BuiltEvent): Record<string, unknown> {
    const linkedJsonLd: Parameters<typeof toEventJsonLd>[1] = {};
    for (const { definition, target } of this.links.all()) {
      const nodes = (linked.get(definition.field) ?? []).map((o) => target.jsonLd(o));
      linkedJsonLd[definition.jsonLdProperty] = definition.cardinality === 'one' ? nodes[0] : nodes;
    }
    return toEventJsonLd(object, linkedJsonLd);
  }

  /**
   * Event objects for many posts in a fixed number of queries: details, terms, each link's records and
   * images are each loaded once for the whole page. `passwordGiven` tells which protected events the
   * caller has unlocked; editors of an event always see it whole.
   */
  async toObjects(posts: PostEntity[], ctx: RequestContext, passwordGiven: (post: PostEntity) => boolean) {
    const details = await this.events.detailsOf(posts.map((p) => p.id));
    return this.fromRecords(
      posts.map((post) => {
        const detail = details.get(post.id);
        if (!detail) throw new Error(`event ${post.id} has no details row`);
        return { post, details: detail };
      }),
      ctx,
      passwordGiven,
    );
  }

  /**
   * {@link toObjects} for events read with their details (list pages, single reads). `countPlaceholders`:
   * terms' counts as the event documents' placeholders (documents/event-document-template.ts).
   */
  async fromRecords(
    records: EventRecord[],
    ctx: RequestContext,
    passwordGiven: (post: PostEntity) => boolean,
    options: { countPlaceholders?: boolean } = {},
  ): Promise<BuiltEvent[]> {
    const posts = records.map((r) => r.post);
    const ids = posts.map((p) => p.id);
    const details = new Map(records.map((r) => [r.post.id, r.details]));
    const links = this.links.all();
    const { links: linkedRecords, terms } = await this.linkedRecords.of(
      ids,
      links.map(({ target }) => target.linkedRecordsSource),
      this.eventTaxonomies.termFields().map((t) => t.taxonomy),
    );
    const linkedByField = new Map<string, Map<number, object[]>>();
    // How many records each event links to, hidden ones included: `complete` tells whether the caller saw all.
    const linkCounts = new Map<number, number>();
    for (const [index, { definition, target }] of links.entries()) {
      linkedByField.set(definition.field, await target.objectsOfLinks(linkedRecords[index], ctx));
      for (const { parentId } of linkedRecords[index]) linkCounts.set(parentId, (linkCounts.get(parentId) ?? 0) + 1);
    }
    const [images] = [
      await this.attachments.findMany(posts.map((p) => p.featuredImageId).filter((id): id is number => id !== null)),
    ];
    const nowUtc = this.siteTime.now().utc;
    const fields = this.fields.all();
    const fieldValues: Map<number, unknown>[] = [];
    for (const field of fields) fieldValues.push(await field.valuesOf(ids, ctx));
    const seriesLines = await this.series.linesOf(records.map((r) => r.details.seriesId));
    const categoryTaxonomy = this.taxonomies.get(CALENDAR_TAXONOMIES.category);
    const tagTaxonomy = this.taxonomies.get(CALENDAR_TAXONOMIES.tag);
    return posts.map((post) => {
      const detail = details.get(post.id);
      if (!detail) throw new Error(`event ${post.id} has no details row`);
      const postTerms = terms.get(post.id) ?? [];
      const termObjects = (taxonomy: TaxonomyDefinition): TermObject[] =>
        postTerms
          .filter((t) => t.taxonomy === taxonomy.taxonomy)
          .map((t) => {
            const term = toTermObject(t, taxonomy, ctx);
            return options.countPlaceholders
              ? ({ ...term, count: countPlaceholder(t.id) } as unknown as TermObject)
              : term;
          });
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
          recurrence: detail.seriesId === null ? null : (seriesLines.get(detail.seriesId) ?? []),
        },
        ctx,
        nowUtc,
        blank,
      );
      for (const { field, taxonomy } of this.eventTaxonomies.all())
        object[field] = blank ? [] : termObjects(taxonomy).sort(byTermName);
      let validUntilUtc: string | null = null;
      for (const [index, field] of fields.entries()) {
        const value = blank || !fieldValues[index].has(post.id) ? field.empty : fieldValues[index].get(post.id);
        object[field.name] = value;
        const until = field.validUntil?.(value, nowUtc) ?? null;
        if (until !== null && (validUntilUtc === null || until < validUntilUtc)) validUntilUtc = until;
      }
      let shown = 0;
      for (const objects of linked.values()) shown += objects.length;
      return { object, details: detail, linked, complete: shown === (linkCounts.get(post.id) ?? 0), validUntilUtc };
    });
  }
}
