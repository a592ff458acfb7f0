import { responseSchemaRegistry, type ResponseSchema } from '../../../common/http/response-schema-registry';
import { documentedProperties } from '../../../common/validation/documented-properties';
import { CreateEventDto } from '../rest/dto/create-event.dto';
import { ListEventsQueryDto } from '../rest/dto/list-events-query.dto';
import { UpdateEventDto } from '../rest/dto/update-event.dto';
import { EVENT_WRITE_FIELDS, type SeriesSharing } from './event-write-fields';

/** A module's member in the event's json_ld. */
export interface ModuleJsonLdMember {
  name: string;
  property: string;
  value: (value: unknown) => unknown;
}

/** A module's member in the feeds, as an `X-` property; `written`: a write field reads it back on import. */
export interface ModuleIcalMember {
  name: string;
  property: string;
  text: (value: unknown) => string | undefined;
  written: boolean;
}

const moduleJsonLd: ModuleJsonLdMember[] = [];
const moduleIcal: ModuleIcalMember[] = [];

/** The json_ld properties modules' members add to the event's, in declaration order. */
export function moduleJsonLdMembers(): readonly ModuleJsonLdMember[] {
  return moduleJsonLd;
}

/** The iCalendar properties modules' members add to a VEVENT, in declaration order. */
export function moduleIcalMembers(): readonly ModuleIcalMember[] {
  return moduleIcal;
}

/** What modules declared, as `kind:name` (`field:tickets`, `write field:tickets`, `list parameter:…`). */
const declared = new Set<string>();

/** Whether a module declared a field (`field`) or a write field (`write field`) of that name. */
export function isDeclared(kind: 'field' | 'write field', name: string): boolean {
  return declared.has(`${kind}:${name}`);
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
  /** Its schema.org property in the event's json_ld, and its value there (by default the member's value). */
  jsonLd?: { property: string; value?: (value: unknown) => unknown };
  /**
   * Its iCalendar property in the feeds (an `X-` name), as text; an empty text or undefined writes none. An
   * iCalendar import reads it back into the write field of the same name.
   */
  ical?: { property: string; text: (value: unknown) => string | undefined };
}): void {
  const { name, schema, writeRule, jsonLd, ical } = declaration;
  if (ical && !/^X-[A-Z0-9-]+$/.test(ical.property))
    throw new Error(`the event field "${name}" names the iCalendar property "${ical.property}": modules' are X-NAMES`);
  claim(CreateEventDto, name, 'field');
  responseSchemaRegistry.addMember('Event', name, schema);
  if (jsonLd) moduleJsonLd.push({ name, property: jsonLd.property, value: jsonLd.value ?? ((value) => value) });
  if (ical) moduleIcal.push({ name, ...ical, written: writeRule !== undefined });
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
