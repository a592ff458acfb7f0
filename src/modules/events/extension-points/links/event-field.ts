import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../../../auth/auth-user';
import type { RequestContext } from '../../../../common/http/request-context';
import { responseSchemaRegistry, type ResponseSchema } from '../../../../common/http/response-schema-registry';
import { documentedProperties } from '../../../../common/validation/documented-properties';
import { CreateEventDto } from '../../rest/dto/create-event.dto';
import { EVENT_WRITE_FIELDS, type SeriesSharing } from '../../fields/event-write-fields';
import { ListEventsQueryDto } from '../../rest/dto/list-events-query.dto';
import { UpdateEventDto } from '../../rest/dto/update-event.dto';

/**
 * A member a module adds to the event object (a ticket summary, a rating), read for a whole page at once.
 * Declared first with {@link declareEventField} (its OpenAPI schema, its write rule), then registered with
 * `EventFieldRegistry` by the provider that reads it. With `save`, it is a write field too: validated by
 * the declared rule and saved in the event write's transaction. Stored event documents hold it like any other member, within
 * what it declares: `dependsOnCaller` keeps documents from signed-in callers, `validUntil` ends a
 * document's life when the value turns with the clock.
 */
export interface EventField<V = unknown> {
  /** The member's name in the event object (and the write field's, with `save`), as declared. */
  readonly name: string;
  /** What events without a value show, and what a password-protected event shows unread. */
  readonly empty: V;
  /** The values of many events in one go (a fixed number of queries per page). */
  valuesOf(eventIds: number[], ctx: RequestContext): Promise<Map<number, V>>;
  /**
   * True when the value differs between callers (the caller's own tickets): stored documents then serve
   * anonymous callers only, and signed-in callers get the event assembled for them.
   */
  readonly dependsOnCaller?: boolean;
  /**
   * For a value that turns with time ("on sale now"): the UTC instant (`YYYY-MM-DD HH:mm:ss`) until which it
   * stays as built, or null when only a write changes it. A stored document is not served from then on.
   */
  validUntil?(value: V, nowUtc: string): string | null;
  /** Saves the write field's value (as its rule validated it) for the event, inside the write's transaction. */
  save?(eventId: number, value: unknown, write: { user: AuthUser | null; created: boolean }): Promise<void>;
}

/** The modules' write fields, and whether a series' occurrences share each. */
const moduleWriteFields = new Map<string, SeriesSharing['series']>();

/** Says what a write field declared at run time (a link's, a taxonomy's) is to a series' occurrences. */
export function noteWriteFieldSharing(name: string, sharing: SeriesSharing['series']): void {
  moduleWriteFields.set(name, sharing);
}

/**
 * Refuses to start a service where a write field of `POST /events` says nothing of what it is to a series'
 * occurrences: one that did would silently be left off the occurrences a series adds.
 */
export function assertWriteFieldsClassified(): void {
  const unclassified = documentedProperties(CreateEventDto).filter((name) => seriesSharingOf(name) === undefined);
  if (unclassified.length > 0)
    throw new Error(
      `the event write fields ${unclassified.join(', ')} do not say whether a series' occurrences share them`,
    );
}

/** Whether an edit of a whole series leaves the field to each occurrence (its times, its slug). */
export function isOccurrenceOwn(name: string): boolean {
  const sharing = seriesSharingOf(name);
  return sharing === 'times' || sharing === 'own';
}

/**
 * What a write field is to a series' occurrences (see `SeriesSharing`): the built-in fields' from their
 * catalogue, a module's as it declared it, a link's and a taxonomy's by their kind; undefined for a name no
 * one declared.
 */
export function seriesSharingOf(name: string): SeriesSharing['series'] | undefined {
  const builtIn = (EVENT_WRITE_FIELDS as Partial<Record<string, SeriesSharing>>)[name];
  if (builtIn) return builtIn.series;
  return moduleWriteFields.get(name);
}

/** What modules declared, as `kind:name` (`field:tickets`, `write field:tickets`, `list parameter:…`). */
const declared = new Set<string>();

/** The fields modules added, in registration order. */
@Injectable()
export class EventFieldRegistry {
  private readonly fields: EventField[] = [];

  register(field: EventField): void {
    if (this.fields.some((f) => f.name === field.name))
      throw new Error(`the event field "${field.name}" is registered twice`);
    if (!declared.has(`field:${field.name}`))
      throw new Error(
        `the event field "${field.name}" is not declared (declareEventField, where its module is defined)`,
      );
    if (field.save && !declared.has(`write field:${field.name}`))
      throw new Error(`the event field "${field.name}" saves a value but declares no write rule`);
    this.fields.push(field);
  }

  all(): readonly EventField[] {
    return this.fields;
  }

  /** Whether a field's value differs between callers (documents then serve anonymous callers only). */
  get anyDependsOnCaller(): boolean {
    return this.fields.some((f) => f.dependsOnCaller === true);
  }
}

/** Refuses a name the event DTO (or another module) already has: its documented properties tell. */
function claim(dto: { prototype: object }, name: string, what: string): void {
  const key = `${what}:${name}`;
  if (declared.has(key) || documentedProperties(dto).includes(name))
    throw new Error(`the event ${what} "${name}" is declared twice`);
  declared.add(key);
}

/**
 * Declares a module's event field where the module is defined (before the OpenAPI document is built): its
 * member in the event's response schema and, for a write field, its validation rule and documentation on
 * the create and update DTOs, as if written there.
 */
export function declareEventField(declaration: {
  name: string;
  schema: ResponseSchema;
  writeRule?: PropertyDecorator;
  /**
   * For a write field: whether the occurrences of a series share its value (`template`, the default: a
   * series' new occurrences get it, and an edit of the whole series writes it to all), or each keeps its own.
   */
  series?: 'template' | 'own';
}): void {
  const { name, schema, writeRule } = declaration;
  claim(CreateEventDto, name, 'field');
  responseSchemaRegistry.addMember('Event', name, schema);
  if (!writeRule) return;
  claim(CreateEventDto, name, 'write field');
  noteWriteFieldSharing(name, declaration.series ?? 'template');
  for (const dto of [CreateEventDto, UpdateEventDto]) writeRule(dto.prototype, name);
}

/**
 * Gives `GET /events` (and the feeds) a query parameter with its rule, for a module's list filter
 * (`EventListFilter`). A parameter the contract already names (`ticketed`) needs no declaration: the
 * filter that lists it in `params` takes it over.
 */
export function declareEventListParam(name: string, rule: PropertyDecorator): void {
  claim(ListEventsQueryDto, name, 'list parameter');
  rule(ListEventsQueryDto.prototype, name);
}
