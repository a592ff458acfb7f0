import { responseSchemaRegistry } from '../../../../common/http/response-schema-registry';
import { docText } from '../../../../common/i18n/doc-text';
import { IdListField, LinkedRecordsField } from '../../../../common/validation/fields';
import { CreateEventDto } from '../../rest/dto/create-event.dto';
import { ListEventsQueryDto } from '../../rest/dto/list-events-query.dto';
import { UpdateEventDto } from '../../rest/dto/update-event.dto';
import type { EventLinkDefinition } from './event-link';
import { noteWriteFieldSharing } from '../../fields/event-field-declarations';

const declared = new Set<string>();
/** The links whose records the feeds write, in declaration order. */
const icalLinks: Pick<EventLinkDefinition, 'field' | 'ical'>[] = [];

/** The links that say how the feeds write their records (`EventLinkDefinition.ical`). */
export function linkIcalWriters(): readonly Pick<EventLinkDefinition, 'field' | 'ical'>[] {
  return icalLinks;
}

/**
 * Gives the event DTOs the link's write field and list filter, with their validation rules and
 * documentation, as if they had been written there, and the `Event` component its member. Runs when the linked module is defined, before the
 * OpenAPI document is built; declaring the same field twice is refused.
 */
export function declareEventLinkFields(definition: EventLinkDefinition): void {
  const { field } = definition;
  if (declared.has(field)) throw new Error(`the event field "${field}" is declared by two links`);
  declared.add(field);
  if (definition.ical) icalLinks.push({ field, ical: definition.ical });
  // The series' template keeps a link as the linked ids, like the built-in fields it shares.
  noteWriteFieldSharing(field, 'template');
  for (const dto of [CreateEventDto, UpdateEventDto]) {
    LinkedRecordsField({ description: definition.writeDescription })(dto.prototype, field);
  }
  IdListField({
    description: definition.filterDescription,
    nonEmpty: true,
    ...(definition.restBase !== undefined ? { samplesOf: definition.restBase } : {}),
  })(ListEventsQueryDto.prototype, field);
  const ref = {
    $ref: `#/components/schemas/${definition.component ?? field.charAt(0).toUpperCase() + field.slice(1)}`,
  };
  responseSchemaRegistry.addMember(
    'Event',
    field,
    definition.cardinality === 'many'
      ? { type: 'array', items: ref }
      : {
          description: docText({ en: `The ${field}, or \`[]\` when none.`, de: `${field} oder \`[]\`.` }),
          oneOf: [ref, { type: 'array', maxItems: 0, items: {} }],
        },
  );
}
