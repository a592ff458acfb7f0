import type { PostTypeDefinition } from '../../core/posts/post-type.registry';
import { CALENDAR_POST_TYPES } from '../calendar-post-types';

export const VENUE_POST_TYPE: PostTypeDefinition = {
  type: CALENDAR_POST_TYPES.venue,
  noun: 'venue',
  label: { en: 'venue', de: 'Veranstaltungsort' },
};

/** Collection path under the namespace and key of the list envelope. */
export const VENUES_REST_BASE = 'venues';
