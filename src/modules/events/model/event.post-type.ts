import type { PostTypeDefinition } from '../../../core/posts/post-type.registry';
import { CALENDAR_POST_TYPES, CALENDAR_TAXONOMIES } from '../../calendar-post-types';

export const EVENT_POST_TYPE: PostTypeDefinition = {
  type: CALENDAR_POST_TYPES.event,
  noun: 'event',
  label: { en: 'event', de: 'Veranstaltung' },
  taxonomies: [CALENDAR_TAXONOMIES.category, CALENDAR_TAXONOMIES.tag],
};

/** Collection path under the namespace and key of the list envelope. */
export const EVENTS_REST_BASE = 'events';
