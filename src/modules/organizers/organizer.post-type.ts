import type { PostTypeDefinition } from '../../core/posts/post-type.registry';
import { CALENDAR_POST_TYPES } from '../calendar-post-types';

export const ORGANIZER_POST_TYPE: PostTypeDefinition = {
  type: CALENDAR_POST_TYPES.organizer,
  noun: 'organizer',
  label: { en: 'organizer', de: 'Veranstalter' },
};

/** Collection path under the namespace and key of the list envelope. */
export const ORGANIZERS_REST_BASE = 'organizers';
