import type { EventLinkDefinition } from '../events';
import { organizerAddress } from './organizer.ical';

/** Events link organizers in order (behaviour.md §5: always an array), through `event_organizers`. */
export const ORGANIZER_EVENT_LINK: EventLinkDefinition = {
  field: 'organizer',
  cardinality: 'many',
  jsonLdProperty: 'organizer',
  ical: { property: 'ORGANIZER', write: organizerAddress },
  table: 'event_organizers',
  column: 'organizer_id',
  writeDescription: {
    en: 'The organizers, in order: IDs, {id} objects or objects of organizer fields.',
    de: 'Die Veranstalter, in dieser Reihenfolge: IDs, {id}-Objekte oder Objekte mit Veranstalterfeldern.',
  },
  filterDescription: { en: 'Events by any of these organizers.', de: 'Veranstaltungen eines dieser Veranstalter.' },
};
