import { StoredEventField, type StoredEventFieldDefinition } from '../../src/extend';

/**
 * An event's `capacity`, stored with the service's own rows: written and cleared (`null`) like any field,
 * shared by a series' occurrences, in json_ld (`maximumAttendeeCapacity`) and the feeds (`X-CAL-CAPACITY`),
 * carried by both imports, and filtered by `min_capacity=`.
 */
export const CAPACITY: StoredEventFieldDefinition = {
  name: 'capacity',
  type: 'integer',
  min: 0,
  description: { en: 'How many people the event admits.', de: 'Wie viele Menschen die Veranstaltung einlässt.' },
  jsonLd: 'maximumAttendeeCapacity',
  ical: 'X-CAL-CAPACITY',
  filters: [
    {
      param: 'min_capacity',
      compare: '>=',
      description: { en: 'Events that admit at least this many.', de: 'Veranstaltungen für mindestens so viele.' },
    },
  ],
};

@StoredEventField(CAPACITY)
export class CapacityModule {}
