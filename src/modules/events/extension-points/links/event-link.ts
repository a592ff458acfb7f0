import type { ICalEventData } from 'ical-generator';
import type { AuthUser } from '../../../../auth/auth-user';
import type { RequestContext } from '../../../../common/http/request-context';
import type { Localized } from '../../../../common/i18n/language';
import type { PostRef } from '../../../../core/posts/post-ref';
import type { PostTypeDefinition } from '../../../../core/posts/post-type.registry';
import type { LinkedRecord } from '../linked/linked-record';
import type { LinkedRecordsSource } from '../linked/linked-record';

/**
 * How events link to records of another post type (venues, organizers, a team's speakers), declared by
 * the module that owns that type. The events module reads these declarations for writes, reads, list
 * filters, `rest_url` echoes, json_ld and password blanking; adding a link needs no change to it.
 */
export interface EventLinkDefinition {
  /** The event's write field, list filter and response member: `venue`, `organizer`. */
  field: string;
  /** `one`: the response shows the first record or `[]`; `many`: the list, in linked order. */
  cardinality: 'one' | 'many';
  /** The schema.org property of the event's json_ld the linked records fill (`location`, `organizer`). */
  jsonLdProperty: string;
  /** Link table (`event_id`, `<column>`, `sort_order`) and its column naming the linked record. */
  table: string;
  column: string;
  /**
   * The iCalendar property the feeds write the linked records as (venue: LOCATION, organizers: ORGANIZER), from
   * the records the event shows (none on a protected event read without its password); without it, a feed
   * leaves them out.
   */
  ical?: { property: string; write: (records: Record<string, unknown>[]) => Partial<ICalEventData> };
  /**
   * The OpenAPI component of the linked objects, which the event's member refers to; by default the field's
   * name capitalised (`venue`: `Venue`).
   */
  component?: string;
  /** The linked records' collection under the namespace (`venues`): its records sample the list filter. */
  restBase?: string;
  /** Documentation of the write field and of the list filter, in every language. */
  writeDescription: Localized;
  filterDescription: Localized;
}

/** What the events module needs of the linked type's service; `LinkedPostTypeService` provides it. */
export interface EventLinkTarget {
  readonly postType: PostTypeDefinition;
  /** Validates an inline object of the linked type's fields in an event write. */
  readonly createDto: new () => object;
  /** The write lock `createOrReuse` takes for this inline object (a write takes all of them at once). */
  writeLockKeyOf(dto: object): string;
  createOrReuse(dto: object, user: AuthUser | null): Promise<number>;
  /** Those of `ids` that are no record of this type the caller may read (a write may not link them). */
  notLinkable(ids: number[], user: AuthUser | null): Promise<number[]>;
  notVisible(ids: number[], user: AuthUser | null): Promise<number[]>;
  /** `created`: the event was inserted in this transaction, so it has no links to replace yet. */
  setEventLinks(eventId: number, ids: number[], options?: { created?: boolean }): Promise<void>;
  /** Links many events inserted in this transaction (a series' occurrences) to the same records. */
  linkNewEvents(eventIds: readonly number[], ids: number[]): Promise<void>;
  /** Where its records and links are kept, for reading every link type of many events in one query. */
  readonly linkedRecordsSource: LinkedRecordsSource;
  /** The objects of the records events link to, by event, in linked order; hidden ones left out. */
  objectsOfLinks(links: LinkedRecord<object>[], ctx: RequestContext): Promise<Map<number, object[]>>;
  jsonLd(object: object): Record<string, unknown>;
  /** The type's collection (`venues`), as this service and TEC sites name it. */
  readonly restBase: string;
  /** A record written through the type's own write path (validation, sanitising, slugs): what imports use. */
  create(dto: object, ctx: RequestContext): Promise<{ id: number }>;
  update(ref: PostRef, dto: object, ctx: RequestContext): Promise<{ id: number }>;
  /** Moves a record to the trash (`force`: deletes it); an import trashes one gone from its source. */
  delete(ref: PostRef, force: boolean, ctx: RequestContext): Promise<unknown>;
}

/** A declared link with the service behind it. */
export interface EventLink {
  definition: EventLinkDefinition;
  target: EventLinkTarget;
}
