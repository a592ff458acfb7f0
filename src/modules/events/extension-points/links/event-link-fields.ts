import { IdListField, LinkedRecordsField } from '../../../../common/validation/fields';
import { CreateEventDto } from '../../rest/dto/create-event.dto';
import { ListEventsQueryDto } from '../../rest/dto/list-events-query.dto';
import { UpdateEventDto } from '../../rest/dto/update-event.dto';
import type { EventLinkDefinition } from './event-link';
import { noteWriteFieldSharing } from './event-field';

const declared = new Set<string>();

/**
 * Gives the event DTOs the link's write field and list filter, with their validation rules and
 * documentation, as if they had been written there. Runs when the linked module is defined, before the
 * OpenAPI document is built; declaring the same field twice is refused.
 */
export function declareEventLinkFields(definition: EventLinkDefinition): void {
  const { field } = definition;
  if (declared.has(field)) throw new Error(`the event field "${field}" is declared by two links`);
  declared.add(field);
  // The series' template keeps a link as the linked ids, like the built-in fields it shares.
  noteWriteFieldSharing(field, 'template');
  for (const dto of [CreateEventDto, UpdateEventDto]) {
    LinkedRecordsField({ description: definition.writeDescription })(dto.prototype, field);
  }
  IdListField({ description: definition.filterDescription, nonEmpty: true })(ListEventsQueryDto.prototype, field);
}
