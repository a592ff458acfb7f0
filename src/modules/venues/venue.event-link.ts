import type { EventLinkDefinition } from '../events';
import { venueLocation } from './venue.ical';

/** Events link one venue (behaviour.md §5: one Venue object, or `[]`), through `event_venues`. */
export const VENUE_EVENT_LINK: EventLinkDefinition = {
  field: 'venue',
  cardinality: 'one',
  jsonLdProperty: 'location',
  ical: { property: 'LOCATION', write: venueLocation },
  table: 'event_venues',
  column: 'venue_id',
  writeDescription: {
    en: 'The venue: an ID, an {id} object, or an object of venue fields that creates (or reuses) a venue.',
    de: 'Der Veranstaltungsort: eine ID, ein {id}-Objekt oder ein Objekt mit Ortsfeldern, das einen Ort anlegt (oder wiederverwendet).',
  },
  filterDescription: { en: 'Events at any of these venues.', de: 'Veranstaltungen an einem dieser Orte.' },
};
